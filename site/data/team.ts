/** The team section of /lingonovel-story (docs/product.md section 2: fixed sample members, kept in one place). */
export interface TeamMember {
  name: string;
  role: string;
  bio: string;
}

export const TEAM: readonly TeamMember[] = [
  {
    name: 'Amélie Roux',
    role: 'Editor, French and Italian',
    bio: 'Grades every story so that each chapter adds only a few new words.',
  },
  {
    name: 'Tomás Herrera',
    role: 'Narration lead',
    bio: 'Records and reviews the phrase clips, one sentence at a time.',
  },
  { name: 'Jana Vermeulen', role: 'Glossaries', bio: 'Writes the dictionary lines learners look up most.' },
  {
    name: 'Lukas Brandt',
    role: 'Engineering',
    bio: 'Keeps the library fast on old phones and slow connections.',
  },
];

/** The fixed lines that /ling shows under its covers, in turn. */
export const LING_LINES: readonly string[] = [
  'Listen to a phrase, read it, then say it aloud.',
  'One chapter a day is enough to keep a language alive.',
  'Look a word up once; hear it again in the next chapter.',
];
