import { createContext } from 'react';
import type { BlockRunStatus } from './runState';

/** Each block's state in the run the console shows (null when none is shown). */
export const RunStatusContext = createContext<ReadonlyMap<string, BlockRunStatus> | null>(null);
