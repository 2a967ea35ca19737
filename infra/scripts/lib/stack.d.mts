/** Types of stack.mjs for the TypeScript tests that launch Weft. */
export declare const SERVICES: readonly string[];
export declare function freePort(): Promise<number>;
export interface RunningStack {
  url: string;
  port: number;
  addresses: Record<string, string>;
  stop(): Promise<void>;
}
export declare function startStack(opts: {
  root: string;
  env?: Record<string, string>;
  port?: number;
  randomPorts?: boolean;
  log?: (message: string) => void;
  quiet?: boolean;
}): Promise<RunningStack>;
