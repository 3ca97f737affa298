export declare function sqlShape(sql: string): string;
export declare function logSqlShapes(
  runner: { prototype: { query: unknown } },
  dir: string,
  specPath: string,
): void;
export declare function logBothEngines(dir: string, specPath: string): void;
