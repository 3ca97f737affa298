/// <reference types="astro/client" />

type ServerPageLocals = import('../server/http/page-locals').PageLocals;

declare namespace App {
  // Filled by the server (server/http/create-app.ts) for every request.
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type
  interface Locals extends ServerPageLocals {}
}
