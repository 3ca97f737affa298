import { Injectable, NotFoundException } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import type { Repository } from 'typeorm';
import { Clock } from '../../platform/common/clock';
import { isForeignKeyViolation, isUniqueViolation } from '../../platform/database/db-errors';
import { PHRASE_NOT_FOUND } from '../../content/access/access.service';
import { SavedWord } from './saved-word.entity';
import { newCard } from './scheduler';

/**
 * Phrase cards (docs/practice.md, "Marks and phrase cards"): a whole phrase kept for review, in the saved
 * words' table (kind "phrase", empty term and meaning), so it shares their ids, FSRS scheduling, review,
 * undo, trash and exports. The unique (user, phrase, term) index gives one per member and phrase. Callers
 * have checked that the member may read the phrase.
 */
@Injectable()
export class PhraseCards {
  constructor(
    @InjectRepository(SavedWord) private readonly words: Repository<SavedWord>,
    private readonly clock: Clock,
  ) {}

  /** The member's card for the phrase, or null. */
  async idOf(userId: number, phraseId: number): Promise<number | null> {
    const card = await this.words.findOne({
      select: { id: true },
      where: { userId, phraseId, kind: 'phrase', term: '' },
    });
    return card?.id ?? null;
  }

  /** The member's card for the phrase, made now (new, due at once) when missing. */
  async ensure(userId: number, phraseId: number): Promise<number> {
    const existing = await this.idOf(userId, phraseId);
    if (existing !== null) return existing;
    const now = this.clock.now();
    try {
      const { identifiers } = await this.words.insert({
        userId,
        phraseId,
        kind: 'phrase',
        term: '',
        meaning: '',
        createdAt: now,
        ...newCard(now),
      });
      return Number(identifiers[0].id);
    } catch (error) {
      // The phrase deleted since the caller's access check: its foreign key refuses the card.
      if (isForeignKeyViolation(error)) throw new NotFoundException(PHRASE_NOT_FOUND);
      // Made twice at the same moment (a mark and a Save, two tabs): the unique index keeps one.
      if (!isUniqueViolation(error)) throw error;
      const winner = await this.idOf(userId, phraseId);
      if (winner === null) throw error;
      return winner;
    }
  }
}
