import type { CatalogueService } from '../content/catalogue/catalogue.service';
import type { ReadingService } from '../learning/reading/reading.service';

/** What every Astro page can use from the server, through Astro.locals, without an HTTP round trip. */
export interface PageLocals {
  catalogue: CatalogueService;
  reading: ReadingService;
  publicUrl: string;
  /** Whether this server takes payments (Stripe keys configured), and the one price it sells. */
  payments: { enabled: boolean; priceId: string | null };
}
