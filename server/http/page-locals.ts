import type { CatalogueService } from '../catalogue/catalogue.service';

/** What every Astro page can use from the server, through Astro.locals, without an HTTP round trip. */
export interface PageLocals {
  catalogue: CatalogueService;
  publicUrl: string;
}
