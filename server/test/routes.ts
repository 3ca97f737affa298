import type { TestServer } from './harness';

/** Every route the application registers, read from the Express router itself. */
export function registeredRoutes(server: TestServer): Array<{ method: string; path: string }> {
  const express = server.app.getHttpAdapter().getInstance() as {
    router: { stack: Array<{ route?: { path: string; methods: Record<string, boolean> } }> };
  };
  return (
    express.router.stack
      // The API description's page (/api/docs and its files) is documentation, not part of the API.
      .filter((layer) => layer.route && !/^\/api\/docs(\/|$)/.test(layer.route.path))
      .flatMap((layer) =>
        Object.keys(layer.route!.methods)
          .filter((m) => m !== '_all')
          .map((method) => ({ method: method.toUpperCase(), path: layer.route!.path })),
      )
  );
}
