import { ForbiddenException, Injectable, NotFoundException } from '@nestjs/common';
import { isFreeChapter } from '../catalogue/free-chapters';
import { PhrasesRepository, type PhrasePlace } from '../catalogue/repository/phrases.repository';
import { PREMIUM_CHAPTER } from '../reading/access';
import { ReadingService } from '../reading/reading.service';
import type { User } from '../users/user.entity';

/**
 * The reader's access rule for a practice call on one phrase (docs/practice.md): 404 for a phrase that
 * does not exist, 403 for one in a chapter the member may not read, as saving a word answers.
 */
@Injectable()
export class ReadablePhrase {
  constructor(
    private readonly phrases: PhrasesRepository,
    private readonly reading: ReadingService,
  ) {}

  async of(user: User, phraseId: number): Promise<PhrasePlace> {
    const [place] = await this.phrases.places([phraseId]);
    if (!place) throw new NotFoundException('Phrase not found.');
    const access = await this.reading.access(isFreeChapter(place.chapter_no, place.first_chapter_no), user);
    if (access === 'upgrade' || access === 'sign-in') throw new ForbiddenException(PREMIUM_CHAPTER);
    return place;
  }
}
