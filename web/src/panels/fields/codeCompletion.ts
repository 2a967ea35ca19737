import { CompletionContext, currentCompletions, selectedCompletion, selectedCompletionIndex, setSelectedCompletion, type Completion, type CompletionResult } from '@codemirror/autocomplete';
import { Prec, type EditorState, type Extension } from '@codemirror/state';
import { EditorView, keymap } from '@codemirror/view';
import { ENV_TYPED_SOURCE, matchingChoices, REFERENCE_TYPED_SOURCE, type RefOption } from '../references';

/** What a code field's menus offer when opened: `<` upstream outputs (`referenceOptions`), `{{` environment variables. */
export interface ReferenceChoices {
  refs: readonly RefOption[];
  envKeys: readonly string[];
  /** Whether `<` offers outputs here (not in a field taking no connections, as in `RefText`). */
  refsAllowed: boolean;
}

const ENV_TYPED = new RegExp(`${ENV_TYPED_SOURCE}$`);
const REF_TYPED = new RegExp(`${REFERENCE_TYPED_SOURCE}$`);

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

/** The choices this source made (the menu may hold the language's own completions beside them). */
const choicesMade = new WeakSet<Completion>();

const option = (label: string, detail: string, type: string): Completion => {
  const made: Completion = {
    label,
    detail,
    type,
    apply: (view, _completion, from, to) => {
      const change = referenceChange(view.state, from, to, label);
      view.dispatch({ changes: change, selection: { anchor: change.from + label.length }, userEvent: 'input.complete' });
    },
  };
  choicesMade.add(made);
  return made;
};

/**
 * A CodeMirror completion source for code fields: typing `<` offers the block's upstream outputs and
 * `{{` the environment variables, as text fields do, narrowed as they are (`matchingChoices`: the
 * choices holding what follows, in their order). Anything else — `a < b`, `a<=b`, `</div>` — leaves
 * the menu closed once the text can no longer be a reference or nothing matches it.
 */
export function referenceCompletions(choices: () => ReferenceChoices | null): (context: CompletionContext) => CompletionResult | null {
  const offer = (context: CompletionContext): CompletionResult | null => {
    const now = choices();
    if (!now) return null;
    // Narrowed here (`filter: false`), again as each character is typed (`update`, at once: a source
    // asked again leaves the menu disabled meanwhile, and an Enter then would be a new line).
    const env = context.matchBefore(ENV_TYPED);
    if (env) {
      const keys = matchingChoices(now.envKeys.map((k) => ({ insert: `{{${k}}}` })), env.text.slice(2));
      return keys.length === 0 ? null : { from: env.from, options: keys.map((k) => option(k.insert, 'Environment variable', 'variable')), filter: false, update: (_r, _f, _t, next) => offer(next) };
    }
    const ref = context.matchBefore(REF_TYPED);
    if (!ref || !now.refsAllowed) return null;
    const refs = matchingChoices(now.refs, ref.text.slice(1));
    return refs.length === 0 ? null : { from: ref.from, options: refs.map((o) => option(o.insert, o.group, 'property')), filter: false, update: (_r, _f, _t, next) => offer(next) };
  };
  return offer;
}

let choosing = false;

/**
 * The first `<` or `{{` choice is chosen whenever the menu shows them with none chosen (opened, or
 * narrowed by a character typed), as a text field's menu does: Enter takes it, Escape closes the menu.
 * The language's own completions open with none chosen (`selectOnOpen: false`), so Enter after a
 * keyword stays a new line.
 */
export const firstReferenceChosen = EditorView.updateListener.of((update) => {
  if (choosing || selectedCompletionIndex(update.state) !== null) return;
  const first = currentCompletions(update.state).findIndex((c) => choicesMade.has(c));
  if (first < 0) return;
  choosing = true;
  try {
    update.view.dispatch({ effects: setSelectedCompletion(first) });
  } finally {
    choosing = false;
  }
});

/**
 * Enter with the menu showing `<` or `{{` choices takes the chosen one, else (the menu greyed out while
 * the language's own completions are asked again after a key, about 100 ms in which CodeMirror's own
 * Enter is a new line) the first for the text typed — the one the menu chooses once it is back. A
 * completion of the language chosen by the user is left to CodeMirror. Placed before the editor's own
 * keys, so it does not hang on their timing.
 */
export function enterTakesReference(source: (context: CompletionContext) => CompletionResult | null): Extension {
  return Prec.highest(
    keymap.of([
      {
        key: 'Enter',
        run: (view) => {
          if (!view.dom.querySelector('.cm-tooltip-autocomplete')) return false;
          const pos = view.state.selection.main.head;
          const result = source(new CompletionContext(view.state, pos, false, view));
          const chosen = selectedCompletion(view.state);
          const take = chosen ?? result?.options[0];
          if (!result || !take || !choicesMade.has(take) || typeof take.apply !== 'function') return false;
          take.apply(view, take, result.from, pos);
          return true;
        },
      },
    ]),
  );
}
