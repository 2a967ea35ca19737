import { useCallback, useEffect, useRef, useState } from 'react';
import { flushSync } from 'react-dom';
import type { Command } from '@weft/workflow';
import type { BlockDefinition } from '../api';
import { STALE_BUILD_EVENT } from '../ui/staleChunks';
import { useToast } from '../ui/toast';
import { followEvents, httpTransport } from './http';
import { createWorkflowSession, type SessionSnapshot, type WorkflowSession } from './session';
import { trackUnsaved, whenSaved } from './unsaved';

/** A random id for new blocks, edges and command ids (works outside secure contexts, unlike randomUUID). */
export function newId(): string {
  const hex = Array.from(crypto.getRandomValues(new Uint8Array(16)), (b) => b.toString(16).padStart(2, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** Shown once per page when the server sends an event type this bundle does not know (a newer Weft is deployed). */
export const OUTDATED_MESSAGE = 'Weft was updated — reload the page to get the latest version';

/** What the canvas gets from a session. */
export interface WorkflowEditor {
  snapshot: SessionSnapshot | null;
  /** Whether the live stream is open. */
  live: boolean;
  edit(commands: Command[]): void;
  dismissMessage(): void;
}

/** Opens a collaborative session on a workflow: loads it, follows its live events and applies edits optimistically. */
export function useWorkflowSession(workflowId: string, definitions: readonly BlockDefinition[] | undefined): WorkflowEditor {
  const catalogue = useRef(new Map<string, BlockDefinition>());
  useEffect(() => {
    catalogue.current = new Map((definitions ?? []).map((d) => [d.type, d]));
  }, [definitions]);
  const [session, setSession] = useState<WorkflowSession | null>(null);
  const [snapshot, setSnapshot] = useState<SessionSnapshot | null>(null);
  const [live, setLive] = useState(false);
  const toast = useToast();
  const toldOutdated = useRef(false);
  // A new build found while loading a part of the app, with edits still unsaved (staleChunks does not reload then).
  const [staleBuild, setStaleBuild] = useState(false);
  useEffect(() => {
    const told = () => setStaleBuild(true);
    window.addEventListener(STALE_BUILD_EVENT, told);
    return () => window.removeEventListener(STALE_BUILD_EVENT, told);
  }, []);
  const outdated = (snapshot?.outdated ?? false) || staleBuild;
  useEffect(() => {
    if (!outdated || toldOutdated.current) return;
    toldOutdated.current = true;
    // It stays until dismissed, with the reload at hand: a user who missed it would go on running old code.
    // Reload waits for edits the server has not answered yet, which a reload would lose.
    const reload = () => void whenSaved().then(() => window.location.reload());
    toast.show(OUTDATED_MESSAGE, 'info', { sticky: true, action: { label: 'Reload', run: reload } });
  }, [outdated, toast]);

  useEffect(() => {
    const opened = createWorkflowSession({
      transport: httpTransport(workflowId),
      newId,
      context: () => ({ now: Date.now(), newId, workflowId, blockDefinition: (type) => catalogue.current.get(type) }),
    });
    let active = true;
    let stop = () => {};
    const unsubscribe = opened.subscribe(() => setSnapshot(opened.snapshot()));
    const untrack = trackUnsaved(opened);
    setSession(opened);
    setSnapshot(null);
    void opened.load().then(() => {
      // A live event is drawn in the task it arrives in (render, commit and React Flow's store update
      // together), not over several scheduler tasks, which on a busy machine each wait their turn.
      if (active && opened.snapshot().status === 'ready') stop = followEvents(workflowId, opened.version, (e) => flushSync(() => opened.receiveLive([e])), setLive);
    });
    return () => {
      active = false;
      unsubscribe();
      untrack();
      stop();
      opened.dispose();
    };
  }, [workflowId]);

  const edit = useCallback((commands: Command[]) => void session?.edit(commands), [session]);
  const dismissMessage = useCallback(() => session?.dismissMessage(), [session]);
  return { snapshot, live, edit, dismissMessage };
}
