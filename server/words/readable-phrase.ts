import { ForbiddenException, Injectable, NotFoundException } from '@nestjs/common';
import { isFreeChapter } from '../catalogue/free-chapters';
import { PhrasesRepository, type PhrasePlace } from '../catalogue/repository/phrases.repository';
import { PREMIUM_CHAPTER } from '../reading/access';
import { ReadingService } from '../reading/reading.service';
import type { User } from '../users/user.entity';

/** What a call on a phrase that does not exist answers (404). */
export const PHRASE_NOT_FOUND = 'Phrase not found.';

/**
 * The reader's access rule for a call on one phrase (saving a word or a phrase card, a dictation, a mark;
 * docs/practice.md; a word's lookup, docs/lookup.md): 404 for a phrase that does not exist, 403
 * (PREMIUM_CHAPTER) for one in a chapter the caller may not read. A visitor (`undefined`, on a public route)
 * reads free chapters only.
 */
@Injectable()
export class ReadablePhrase {
  constructor(
    private readonly phrases: PhrasesRepository,
    private readonly reading: ReadingService,
  ) {}

  async of(user: User | undefined, phraseId: number): Promise<PhrasePlace> {
    const [place] = await this.phrases.places([phraseId]);
    if (!place) throw new NotFoundException(PHRASE_NOT_FOUND);
    const access = await this.reading.access(isFreeChapter(place.chapter_no, place.first_chapter_no), user);
    if (access === 'upgrade' || access === 'sign-in') throw new ForbiddenException(PREMIUM_CHAPTER);
    return place;
  }
}
