/** Types of stack.mjs for the TypeScript tests that launch Weft. */
export declare const SERVICES: readonly string[];
export declare function freePort(): Promise<number>;
export interface RunningStack {
  url: string;
  port: number;
  addresses: Record<string, string>;
  stop(): Promise<void>;
}
export declare function stackAddresses(opts: { env?: Record<string, string | undefined>; randomPorts?: boolean }): Promise<{ addresses: Record<string, string>; port: number }>;
export declare function startStack(opts: {
  root: string;
  env?: Record<string, string>;
  port?: number;
  randomPorts?: boolean;
  log?: (message: string) => void;
  quiet?: boolean;
  restart?: boolean;
}): Promise<RunningStack>;
export interface Supervised {
  readonly name: string;
  readonly child: import('node:child_process').ChildProcess;
  live(): void;
  stop(): Promise<void>;
}
export declare function supervise(opts: {
  name: string;
  spawn: () => import('node:child_process').ChildProcess;
  log?: (message: string) => void;
  restart?: boolean;
  maxRestarts?: number;
  windowMs?: number;
}): Supervised;
