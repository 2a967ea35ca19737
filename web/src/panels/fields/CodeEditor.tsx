import { useEffect, useRef } from 'react';
import { basicSetup } from 'codemirror';
import { autocompletion } from '@codemirror/autocomplete';
import { EditorState } from '@codemirror/state';
import { EditorView, placeholder as placeholderExt } from '@codemirror/view';
import { javascript } from '@codemirror/lang-javascript';
import { json } from '@codemirror/lang-json';
import { enterTakesReference, firstReferenceChosen, referenceCompletions, type ReferenceChoices } from './codeCompletion';

export interface CodeEditorProps {
  value: string;
  language: 'javascript' | 'json';
  label: string;
  placeholder?: string;
  /** Every change of the text. */
  onChange(text: string): void;
  /** The editor lost focus. */
  onBlur(): void;
  minHeight?: number;
  /** Shown, not edited (a reader's form). */
  readOnly?: boolean;
  /** What `<` and `{{` offer as typed (a block's code field); read when the menu opens. None: no such menu. */
  references?: () => ReferenceChoices | null;
}

/** CodeMirror 6 with JavaScript or JSON highlighting; loaded only when a code field is shown. */
export default function CodeEditor({ value, language, label, placeholder, onChange, onBlur, minHeight = 90, readOnly = false, references }: CodeEditorProps) {
  const host = useRef<HTMLDivElement>(null);
  const view = useRef<EditorView | null>(null);
  const handlers = useRef({ onChange, onBlur, references });
  handlers.current = { onChange, onBlur, references };
  const withReferences = references !== undefined;

  useEffect(() => {
    if (!host.current) return;
    // One source for the editor's life: the completion keeps a source's result by its identity.
    const refSource = referenceCompletions(() => handlers.current.references?.() ?? null);
    const editor = new EditorView({
      parent: host.current,
      state: EditorState.create({
        doc: value,
        extensions: [
          // Before the editor's own keys: Enter in a `<` or `{{` menu takes its choice.
          ...(withReferences ? [enterTakesReference(refSource)] : []),
          basicSetup,
          language === 'json' ? json() : javascript(),
          placeholderExt(placeholder ?? ''),
          EditorView.lineWrapping,
          // `<` and `{{` menus beside the language's own completions, their first choice chosen (Enter takes
          // it, as in a text field); the language's own open with none chosen, so Enter after a word is a new line.
          ...(withReferences ? [autocompletion({ selectOnOpen: false }), EditorState.languageData.of(() => [{ autocomplete: refSource }]), firstReferenceChosen] : []),
          EditorState.readOnly.of(readOnly),
          EditorView.editable.of(!readOnly),
          EditorView.contentAttributes.of({ 'aria-label': label }),
          EditorView.theme({ '&': { minHeight: `${minHeight}px`, fontSize: '12px' }, '.cm-scroller': { fontFamily: 'var(--mono)' }, '.cm-gutters': { background: '#f8fafc', border: 'none' } }),
          EditorView.updateListener.of((u) => {
            if (u.docChanged) handlers.current.onChange(u.state.doc.toString());
          }),
          // Left, told at once from the DOM's blur: CodeMirror reports a focus change 10 ms later, and a
          // click on another block (a touchpad tap, whose press and release come together) replaces the
          // block form within that time, so the editor was destroyed before the text was sent.
          EditorView.domEventHandlers({
            blur: () => {
              handlers.current.onBlur();
            },
          }),
        ],
      }),
    });
    view.current = editor;
    return () => {
      editor.destroy();
      view.current = null;
    };
    // The editor is made once; later values arrive through the effect below.
  }, [language, readOnly, withReferences]);

  // A value from elsewhere replaces the text unless the user is typing in it.
  useEffect(() => {
    const editor = view.current;
    if (!editor || editor.hasFocus) return;
    const current = editor.state.doc.toString();
    if (current !== value) editor.dispatch({ changes: { from: 0, to: current.length, insert: value } });
  }, [value]);

  return <div className="code-editor" ref={host} />;
}
