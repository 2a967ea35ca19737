import { lazy, Suspense, useEffect, useMemo, useRef, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import type { SubBlockConfig } from '@weft/catalog';
import { api, type BlockDefinition, type CustomTool } from '../../api';
import { BlockIcon, Icon } from '../../ui/icons';
import { LoadBoundary } from '../../ui/LoadBoundary';
import { SubBlockField } from '../SubBlockField';
import { FormBlockContext, useFormEnv } from './FormContext';
import { withDependentsCleared } from './selectors';
import { defaultToolParams, searchRank, toolCardFields, toolChoices } from './toolCard';
import { customToolsLoadMessage, readCustomTools } from '../../settings/customTools';

/** One tool given to an agent. */
const CustomToolDialog = lazy(() => import('../../settings/CustomToolDialog'));

export interface AgentTool {
  type: string;
  title: string;
  /** Fixed by older pickers; the block's own operation choice (in `params`) picks the tool when absent. */
  toolId?: string;
  /** The tool block's form values (sub-block id → value), as on the block itself. */
  params: Record<string, unknown>;
  usageControl?: 'auto' | 'force' | 'none';
  schema?: CustomTool['schema'];
  code?: string;
}

export function agentTools(value: unknown): AgentTool[] {
  if (!Array.isArray(value)) return [];
  return value.filter((t): t is AgentTool => typeof t === 'object' && t !== null && typeof (t as AgentTool).type === 'string').map((t) => ({ ...t, params: t.params ?? {} }));
}

/** A tool block's form inside its card: edits go to the tool's `params`. */
function ToolForm({ definition, tool, onChange }: { definition: BlockDefinition; tool: AgentTool; onChange(params: Record<string, unknown>): void }) {
  const values = { ...defaultToolParams(definition), ...tool.params };
  return (
    <FormBlockContext.Provider value={{ blockType: definition.type, values }}>
      <div className="tool-form" role="group" aria-label={`${tool.title} settings`}>
        {toolCardFields(definition, values).map((field) => (
          <SubBlockField key={field.id} field={field} value={values[field.id] ?? null} onChange={(v) => onChange(withDependentsCleared(definition, values, field.id, v))} />
        ))}
      </div>
    </FormBlockContext.Provider>
  );
}

/**
 * The agent's tool picker: add any tool block (and the API block) — its own form in the card (operation, account, the
 * fields the user fixes; the rest the model fills) — or a custom tool, choose how the model may use
 * each, remove them.
 */
export function ToolInputField({ label, value, onChange }: { field: SubBlockConfig; label: string; value: unknown; onChange(v: unknown): void }) {
  const env = useFormEnv();
  const tools = agentTools(value);
  const [open, setOpen] = useState(false);
  const [query, setQuery] = useState('');
  // "Create a custom tool": the editor in a dialog over the canvas; the tool it saves is given to this agent.
  const [creating, setCreating] = useState(false);
  // The valid ones (spec 000 §5); a failed load is said in the picker, in spec 000 §8's words.
  const custom = useQuery({ queryKey: ['custom-tools'], queryFn: async () => readCustomTools(await api.customTools()) });
  const customTools = custom.data ?? [];
  // Found by name, id or description ("http" finds the API block), the best matches first.
  const choices = useMemo(() => toolChoices(env.definitions, query), [env.definitions, query]);
  const shownCustom = customTools.filter((t) => searchRank(query, [t.title, t.schema.function?.name ?? '', t.schema.function?.description ?? '']) !== undefined);
  const opener = useRef<HTMLButtonElement>(null);
  const pop = useRef<HTMLDivElement>(null);
  const close = () => {
    setOpen(false);
    setQuery('');
  };
  // Open, the picker closes on Escape (above) and on a press anywhere outside it and its button.
  useEffect(() => {
    if (!open) return;
    const outside = (e: PointerEvent) => {
      const target = e.target as Node;
      if (!pop.current?.contains(target) && !opener.current?.contains(target)) close();
    };
    document.addEventListener('pointerdown', outside);
    return () => document.removeEventListener('pointerdown', outside);
  }, [open]);
  const set = (next: AgentTool[]) => onChange(next);
  const latest = useRef(value);
  latest.current = value;
  const add = (tool: AgentTool) => {
    set([...tools, tool]);
    close();
  };
  const customTool = (t: CustomTool): AgentTool => ({ type: 'custom-tool', title: t.title, params: {}, schema: t.schema, code: t.code, usageControl: 'auto' });
  // A form edit lets the block's operation choose the tool again (older pickers fixed the first).
  const setParams = (i: number, params: Record<string, unknown>) =>
    set(tools.map((t, j) => (j === i ? { type: t.type, title: t.title, params, ...(t.usageControl ? { usageControl: t.usageControl } : {}) } : t)));
  return (
    <div className="field field-tools">
      <span className="field-label">{label}</span>
      <ul className="tool-list" aria-label={label}>
        {tools.map((tool, i) => {
          const def = env.definitions.find((d) => d.type === tool.type);
          return (
            <li key={`${tool.type}-${i}`} className="tool-card">
              <div className="tool-head">
                <BlockIcon icon={def?.icon ?? 'wrench'} color={def?.bgColor ?? '#64748b'} name={tool.title} size={20} />
                <span className="tool-title">{tool.title}</span>
                <select
                  className="input select compact"
                  aria-label={`How ${tool.title} is used`}
                  value={tool.usageControl ?? 'auto'}
                  onChange={(e) => set(tools.map((t, j) => (j === i ? { ...t, usageControl: e.target.value as AgentTool['usageControl'] } : t)))}
                >
                  <option value="auto">Auto</option>
                  <option value="force">Force</option>
                  <option value="none">None</option>
                </select>
                <button type="button" className="icon-btn" aria-label={`Remove tool ${tool.title}`} onClick={() => set(tools.filter((_, j) => j !== i))}>
                  <Icon name="x" size={12} />
                </button>
              </div>
              {def && tool.type !== 'custom-tool' && <ToolForm definition={def} tool={tool} onChange={(params) => setParams(i, params)} />}
              {tool.type === 'custom-tool' && <p className="muted">{tool.schema?.function?.description ?? 'Custom tool'}</p>}
            </li>
          );
        })}
      </ul>
      <div className="tool-add">
        <button ref={opener} type="button" className="btn btn-sm" aria-expanded={open} onClick={() => setOpen((o) => !o)}>
          <Icon name="plus" size={12} /> Add tool
        </button>
        {open && (
          <div
            ref={pop}
            className="tool-pop"
            role="dialog"
            aria-label="Add a tool"
            onKeyDown={(e) => {
              if (e.key !== 'Escape') return;
              e.stopPropagation();
              close();
              opener.current?.focus();
            }}
          >
            <input className="input" autoFocus placeholder="Search tools" aria-label="Search tools" value={query} onChange={(e) => setQuery(e.target.value)} />
            <div className="tool-choices">
              {shownCustom.length > 0 && <div className="combo-group">Custom tools</div>}
              {shownCustom.map((t) => (
                  <button key={t.id} type="button" className="tool-choice" onClick={() => add(customTool(t))}>
                    <BlockIcon icon="wrench" color="#64748b" name={t.title} size={20} /> {t.title}
                  </button>
                ))}
              {choices.length > 0 && <div className="combo-group">Tools</div>}
              {custom.error && (
                <p className="tool-load-error" role="alert">
                  {customToolsLoadMessage(custom.error)}
                </p>
              )}
              {choices.length === 0 && shownCustom.length === 0 && <p className="muted tool-none">No tool matches “{query.trim()}”.</p>}
              {choices.map((d) => (
                <button key={d.type} type="button" className="tool-choice" onClick={() => add({ type: d.type, title: d.name, params: defaultToolParams(d), usageControl: 'auto' })}>
                  <BlockIcon icon={d.icon} color={d.bgColor} name={d.name} size={20} /> {d.name}
                </button>
              ))}
            </div>
            <button
              type="button"
              className="btn btn-ghost btn-sm"
              onClick={() => {
                close();
                setCreating(true);
              }}
            >
              <Icon name="wrench" size={12} /> Create a custom tool
            </button>
          </div>
        )}
      </div>
      {creating && (
        <LoadBoundary>
          <Suspense fallback={null}>
            <CustomToolDialog
              onCreated={(t) => {
                // The tools as they are when the save answers: an edit made meanwhile is kept.
                set([...agentTools(latest.current), customTool(t)]);
                setCreating(false);
                opener.current?.focus();
              }}
              onClose={() => {
                setCreating(false);
                opener.current?.focus();
              }}
            />
          </Suspense>
        </LoadBoundary>
      )}
    </div>
  );
}
