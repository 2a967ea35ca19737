import type { Completion, CompletionContext, CompletionResult, CompletionSource } from '@codemirror/autocomplete';
import type { EditorState } from '@codemirror/state';
import type { RefOption } from '../references';

/** What a code field's menus offer when opened: `<` upstream outputs (`referenceOptions`), `{{` environment variables. */
export interface ReferenceChoices {
  refs: readonly RefOption[];
  envKeys: readonly string[];
  /** Whether `<` offers outputs here (not in a field taking no connections, as in `RefText`). */
  refsAllowed: boolean;
}

const ENV_TYPED = /\{\{[\w.-]*$/;
const REF_TYPED = /<[\w.]*$/;

/**
 * The change that puts a chosen reference in place of what was typed (`from`–`to`, from its `<` or
 * `{{`): with the closing braces the editor added after the caret when `{` was typed (close brackets)
 * taken in, so `{{` + a variable reads `{{KEY}}`, not `{{KEY}}}}`.
 */
export function referenceChange(state: EditorState, from: number, to: number, text: string): { from: number; to: number; insert: string } {
  const after = state.sliceDoc(to, to + 2);
  const closing = text.endsWith('}}') ? (after === '}}' ? 2 : after.startsWith('}') ? 1 : 0) : 0;
  return { from, to: to + closing, insert: text };
}

const option = (label: string, detail: string, type: string): Completion => ({
  label,
  detail,
  type,
  apply: (view, _completion, from, to) => {
    const change = referenceChange(view.state, from, to, label);
    view.dispatch({ changes: change, selection: { anchor: change.from + label.length }, userEvent: 'input.complete' });
  },
});

/**
 * A CodeMirror completion source for code fields: typing `<` offers the block's upstream outputs and
 * `{{` the environment variables, as text fields do, narrowed by what follows. Anything else — `a < b`,
 * `a<=b`, `</div>` — leaves the menu closed once the text stops looking like a reference, and nothing
 * is inserted unless an item is picked (the editor opens the menu with no item selected).
 */
export function referenceCompletions(choices: () => ReferenceChoices | null): CompletionSource {
  return (context: CompletionContext): CompletionResult | null => {
    const now = choices();
    if (!now) return null;
    const env = context.matchBefore(ENV_TYPED);
    if (env) {
      return { from: env.from, options: now.envKeys.map((k) => option(`{{${k}}}`, 'Environment variable', 'variable')), validFor: /^\{\{[\w.-]*$/ };
    }
    const ref = context.matchBefore(REF_TYPED);
    if (!ref || !now.refsAllowed) return null;
    return { from: ref.from, options: now.refs.map((o) => option(o.insert, o.group, 'property')), validFor: /^<[\w.]*$/ };
  };
}
