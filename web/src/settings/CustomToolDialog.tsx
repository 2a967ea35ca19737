import { useState } from 'react';
import { createPortal } from 'react-dom';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, type CustomTool } from '../api';
import { useToast } from '../ui/toast';
import { CustomToolFields } from './CustomToolForm';
import { customToolsSyncMessage, newToolDraft, toolFromDraft, type ToolDraft } from './customTools';

/**
 * "Create a custom tool" over the editor: the settings page's tool editor in a dialog, saved with
 * `POST /api/tools/custom` (which adds it to the user's tools) and handed to `onCreated`, so the
 * agent that asked gets it without the user leaving the canvas. A refused save keeps what was typed.
 */
export default function CustomToolDialog({ onCreated, onClose }: { onCreated(tool: CustomTool): void; onClose(): void }) {
  const toast = useToast();
  const queryClient = useQueryClient();
  const [draft, setDraft] = useState<ToolDraft>(newToolDraft);
  const [problem, setProblem] = useState<string | null>(null);
  const save = useMutation({
    mutationFn: async (tool: CustomTool) => {
      await api.saveCustomTools([tool]);
      return tool;
    },
    onSuccess: async (tool) => {
      onCreated(tool);
      toast.success(`Custom tool “${tool.title}” created`);
      await queryClient.invalidateQueries({ queryKey: ['custom-tools'] });
      await queryClient.invalidateQueries({ queryKey: ['custom-tools-settings'] });
    },
    onError: (e) => toast.error(customToolsSyncMessage(e)),
  });
  const submit = () => {
    const made = toolFromDraft(draft);
    setProblem('problem' in made ? made.problem : null);
    if (!('problem' in made)) save.mutate(made.tool);
  };
  // Over everything, not inside the side panel (a container there would hold a fixed element in its box).
  return createPortal(
    <div className="backdrop" onMouseDown={(e) => e.target === e.currentTarget && onClose()}>
      {/* Focusable, and `nokey` for React Flow: a key pressed on the dialog itself (Delete, Ctrl+Z) is not the canvas's. */}
      <div
        className="dialog dialog-wide nokey"
        tabIndex={-1}
        role="dialog"
        aria-modal="true"
        aria-label="Create a custom tool"
        onKeyDown={(e) => {
          if (e.key !== 'Escape') return;
          e.stopPropagation();
          onClose();
        }}
      >
        <h2>Create a custom tool</h2>
        <CustomToolFields draft={draft} onChange={setDraft} problem={problem} />
        <div className="dialog-actions">
          <button type="button" className="btn" onClick={onClose}>
            Cancel
          </button>
          <button type="button" className="btn btn-primary" disabled={save.isPending} onClick={submit}>
            {save.isPending ? 'Saving…' : 'Save and add to the agent'}
          </button>
        </div>
      </div>
    </div>,
    document.body,
  );
}
