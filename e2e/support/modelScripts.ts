import { inject } from 'vitest';
import type { FakeModelTurn } from '@weft/testkit';
import type { ScriptedTurn } from './modelFake.js';

async function post(path: string, body: unknown): Promise<void> {
  const res = await fetch(`${inject('modelFakeUrl')}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  if (!res.ok) throw new Error(`${path} answered ${res.status}: ${await res.text()}`);
}

/** Scripts the stack's fake model: a chat whose user messages carry `marker` gets `turns` in order (startModelFake). */
export function scriptModel(marker: string, turns: ScriptedTurn[]): Promise<void> {
  return post('/_fake/script', { marker, turns });
}

/** Scripts the stack's fake of Anthropic's messages API the same way (serveAnthropic): `holdAt` is not served there. */
export function scriptAnthropic(marker: string, turns: Array<Omit<FakeModelTurn, 'sseGate' | 'onSseEvent'>>): Promise<void> {
  return post('/_fake/anthropic/script', { marker, turns });
}

/** Lets the oldest scripted turn held at `holdAt` stream the rest of its answer (or the next one served, when none is held). */
export function releaseModel(marker: string): Promise<void> {
  return post('/_fake/release', { marker });
}

/** The chat requests the stack's OpenAI-compatible fake received, oldest first (`GET /_fake/chats`: startModelFake); `T` names the fields a test reads. */
export async function modelChats<T>(): Promise<T[]> {
  const res = await fetch(`${inject('modelFakeUrl')}/_fake/chats`);
  if (!res.ok) throw new Error(`/_fake/chats answered ${res.status}: ${await res.text()}`);
  return (await res.json()) as T[];
}
