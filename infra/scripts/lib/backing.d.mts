/** Types of backing.mjs for the TypeScript tests. */
export declare const TEMPORAL_VERSION: string;
export declare const TEMPORAL_DEV_SERVER_FLAGS: string[];
export declare const TEMPORAL_DEV_SQLITE_PRAGMAS: string[];
export declare function temporalBinaryPath(): string;
export declare function waitForPort(host: string, port: number, timeoutMs: number): Promise<boolean>;
export declare function ensureBackingServices(opts: { root: string; log?: (m: string) => void; temporalPort?: number }): Promise<{
  env: { DATABASE_URL: string; NATS_URL: string; TEMPORAL_ADDRESS: string };
  stop(): Promise<void>;
}>;
