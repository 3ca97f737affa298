import type { TestServer } from './harness';

/** Every route the application registers, read from the Express router itself. */
export function registeredRoutes(server: TestServer): Array<{ method: string; path: string }> {
  const express = server.app.getHttpAdapter().getInstance() as {
    router: { stack: Array<{ route?: { path: string; methods: Record<string, boolean> } }> };
  };
  return express.router.stack
    .filter((layer) => layer.route)
    .flatMap((layer) =>
      Object.keys(layer.route!.methods)
        .filter((m) => m !== '_all')
        .map((method) => ({ method: method.toUpperCase(), path: layer.route!.path })),
    );
}
