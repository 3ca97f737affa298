import { AppMeta } from './app-meta.entity';
import { Book } from '../../content/catalogue/entities/book.entity';
import { Chapter } from '../../content/catalogue/entities/chapter.entity';
import { Phrase } from '../../content/catalogue/entities/phrase.entity';
import { User } from '../../accounts/users/user.entity';
import { PasswordResetToken } from '../../accounts/auth/password-reset-token.entity';
import { Initial1763791200000 } from '../migrations/1763791200000-Initial';
import { PasswordResetTokens1763794800000 } from '../migrations/1763794800000-PasswordResetTokens';
import { Subscriptions1763798400000 } from '../migrations/1763798400000-Subscriptions';
import { BookLanguage1763802000000 } from '../migrations/1763802000000-BookLanguage';
import { Subscription } from '../../accounts/billing/subscription.entity';
import { ReadingProgress } from '../../learning/reading/reading-progress.entity';
import { SavedWord } from '../../learning/words/saved-word.entity';
import { ReviewLog } from '../../learning/words/review-log.entity';
import { ReviewLogs1763812800000 } from '../migrations/1763812800000-ReviewLogs';
import { SavedWords1763809200000 } from '../migrations/1763809200000-SavedWords';
import { ReadingProgress1763805600000 } from '../migrations/1763805600000-ReadingProgress';
import { StripeEvent } from '../../accounts/billing/stripe-event.entity';
import { ListeningEvent } from '../../learning/listening/listening-event.entity';
import { LearnerProgress1763816400000 } from '../migrations/1763816400000-LearnerProgress';
import { Imports1763820000000 } from '../migrations/1763820000000-Imports';
import { StagedImport } from '../../publishing/imports/staged-import.entity';
import { SharedRateLimits1763823600000 } from '../migrations/1763823600000-SharedRateLimits';
import { MediaTrash1763827200000 } from '../migrations/1763827200000-MediaTrash';
import { ListeningReceivedMinute1763830800000 } from '../migrations/1763830800000-ListeningReceivedMinute';
import { BookSearch1763834400000 } from '../migrations/1763834400000-BookSearch';
import { WordTrash1763841600000 } from '../migrations/1763841600000-WordTrash';
import { ChapterLength1763845200000 } from '../migrations/1763845200000-ChapterLength';
import { SubscriptionConfirmations1763848800000 } from '../migrations/1763848800000-SubscriptionConfirmations';
import { BookWords1763852400000 } from '../migrations/1763852400000-BookWords';
import { BookFacets1763856000000 } from '../migrations/1763856000000-BookFacets';
import { DeletedWord } from '../../learning/words/deleted-word.entity';
import { Practice1763859600000 } from '../migrations/1763859600000-Practice';
import { PhraseTranslation } from '../../content/catalogue/entities/phrase-translation.entity';
import { DictationAttempt } from '../../learning/practice/dictation-attempt.entity';
import { PhraseMark } from '../../learning/practice/phrase-mark.entity';
import { Formats1764230400000 } from '../migrations/1764230400000-Formats';
import { ImportJobs1764316800000 } from '../migrations/1764316800000-ImportJobs';
import { AudioMeasure } from '../../publishing/formats/audio-measure.entity';
import { AudiobookBuild } from '../../publishing/formats/audiobook-build.entity';
import { AppPassword } from '../../accounts/app-passwords/app-password.entity';
import { Dictionaries1764403200000 } from '../migrations/1764403200000-Dictionaries';
import { WordStatus1764489600000 } from '../migrations/1764489600000-WordStatus';
import { OwnFsrs1764496800000 } from '../migrations/1764496800000-OwnFsrs';
import { Appearance1764504000000 } from '../migrations/1764504000000-Appearance';
import { Appearance } from '../../accounts/users/appearance.entity';
import { Dictionary } from '../../content/dictionaries/dictionary.entity';
import { DictionaryEntry } from '../../content/dictionaries/dictionary-entry.entity';
import { WordForm, WordFormSet } from '../../content/word-forms/word-form.entity';

/** Listed by hand rather than globbed, so ts-jest and the compiled server load the same classes. */
export const ENTITIES = [
  User,
  Book,
  Chapter,
  Phrase,
  AppMeta,
  PasswordResetToken,
  Subscription,
  StripeEvent,
  ReadingProgress,
  SavedWord,
  ReviewLog,
  DeletedWord,
  ListeningEvent,
  StagedImport,
  PhraseTranslation,
  DictationAttempt,
  PhraseMark,
  AudioMeasure,
  AudiobookBuild,
  AppPassword,
  Dictionary,
  DictionaryEntry,
  WordForm,
  WordFormSet,
  Appearance,
];
export const MIGRATIONS = [
  Initial1763791200000,
  PasswordResetTokens1763794800000,
  Subscriptions1763798400000,
  BookLanguage1763802000000,
  ReadingProgress1763805600000,
  SavedWords1763809200000,
  ReviewLogs1763812800000,
  LearnerProgress1763816400000,
  Imports1763820000000,
  SharedRateLimits1763823600000,
  MediaTrash1763827200000,
  ListeningReceivedMinute1763830800000,
  BookSearch1763834400000,
  WordTrash1763841600000,
  ChapterLength1763845200000,
  SubscriptionConfirmations1763848800000,
  BookWords1763852400000,
  BookFacets1763856000000,
  Practice1763859600000,
  Formats1764230400000,
  ImportJobs1764316800000,
  Dictionaries1764403200000,
  WordStatus1764489600000,
  OwnFsrs1764496800000,
  Appearance1764504000000,
];
