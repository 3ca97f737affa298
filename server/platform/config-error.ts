/** A setting that cannot be used: the server refuses to start and says which and why (docs/configuration.md). */
export class ConfigError extends Error {}
