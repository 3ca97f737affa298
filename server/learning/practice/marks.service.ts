import { Injectable, NotFoundException } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import type { Repository } from 'typeorm';
import { joinCatalogue } from '../../content/catalogue/repository/catalogue-joins';
import { Clock } from '../../platform/common/clock';
import { isForeignKeyViolation } from '../../platform/database/db-errors';
import type { User } from '../../accounts/users/user.entity';
import { PhraseCards } from '../words/phrase-cards';
import { PhraseMark, type PhraseMarkValue } from './phrase-mark.entity';
import type { ChapterMarksAnswer, ChapterQuery, MarkAnswer, MarkDto } from './practice.dto';
import { Access, PHRASE_NOT_FOUND } from '../../content/access/access.service';

/** Marks that make the phrase a card: the learner did not follow it. */
const NEEDS_A_CARD: ReadonlySet<PhraseMarkValue> = new Set(['unsure', 'lost']);

/**
 * "Did you understand?" (docs/practice.md, "Marks and phrase cards"): one mark per member and phrase,
 * the latest wins; Not sure and Lost also make the phrase a card in the member's review.
 */
@Injectable()
export class MarksService {
  constructor(
    @InjectRepository(PhraseMark) private readonly marks: Repository<PhraseMark>,
    private readonly access: Access,
    private readonly cards: PhraseCards,
    private readonly clock: Clock,
  ) {}

  /**
   * One statement (INSERT … ON CONFLICT DO UPDATE on both databases): marks sent at once by two tabs leave
   * one row, holding whichever came last.
   */
  async mark(user: User, dto: MarkDto): Promise<MarkAnswer> {
    const place = await this.access.require(user, { phrase: dto.phrase_id }, 'use');
    await this.marks
      .upsert(
        { userId: user.id, phraseId: place.id, mark: dto.mark, markedAt: this.clock.now() },
        { conflictPaths: ['userId', 'phraseId'] },
      )
      .catch((error: unknown) => {
        // The phrase deleted since the access check: its foreign key refuses the mark.
        throw isForeignKeyViolation(error) ? new NotFoundException(PHRASE_NOT_FOUND) : error;
      });
    const cardId = NEEDS_A_CARD.has(dto.mark)
      ? await this.cards.ensure(user.id, place.id)
      : await this.cards.idOf(user.id, place.id);
    return { data: { phrase_id: place.id, mark: dto.mark, card_id: cardId } };
  }

  /** The member's marks on one chapter's phrases, in reading order. */
  async ofChapter(user: User, query: ChapterQuery): Promise<ChapterMarksAnswer> {
    const rows = await joinCatalogue(this.marks.createQueryBuilder('m'), {
      phrase: 'm.phraseId',
      chapter: 'p.chapterId',
      book: 'c.bookId',
    })
      .select('m.phraseId', 'phrase_id')
      .addSelect('m.mark', 'mark')
      .where('m.userId = :userId', { userId: user.id })
      .andWhere('b.bookCode = :bookCode AND c.chapterNo = :chapterNo', {
        bookCode: query.book_code,
        chapterNo: query.chapter_no,
      })
      .orderBy('p.position', 'ASC')
      .addOrderBy('p.id', 'ASC')
      .getRawMany<{ phrase_id: number | string; mark: PhraseMarkValue }>();
    return { data: rows.map((row) => ({ phrase_id: Number(row.phrase_id), mark: row.mark })) };
  }
}
