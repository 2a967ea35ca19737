import { useState, type FormEvent } from 'react';
import { inputFromFields, type InputField } from './runState';

/**
 * Asks for the starter's input before a run: its input fields (a value not of its field's type is refused with the
 * field's name), or in chat mode the chat message, sent as a chat sends it: `{input: message}`.
 */
export function RunInputDialog({ fields, chat = false, onRun, onClose }: { fields: InputField[]; chat?: boolean; onRun(input: Record<string, unknown>): void; onClose(): void }) {
  const [values, setValues] = useState<Record<string, string>>({});
  const [message, setMessage] = useState('');
  const [error, setError] = useState('');
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (chat) {
      if (message.trim() === '') setError('Type the chat message to run with');
      else onRun({ input: message });
      return;
    }
    const out = inputFromFields(fields, values);
    if ('error' in out) {
      setError(out.error);
      return;
    }
    onRun(out.input);
  };
  return (
    <div className="backdrop" onMouseDown={(e) => e.target === e.currentTarget && onClose()}>
      <form className="dialog" role="dialog" aria-modal="true" aria-label="Run input" onSubmit={submit} onKeyDown={(e) => e.key === 'Escape' && onClose()}>
        <h2>{chat ? 'Run with a chat message' : 'Run with input'}</h2>
        {chat && (
          <label className="form-row">
            <span>Message</span>
            <input className="input" aria-label="Chat message" autoFocus placeholder="What the chat user says" value={message} onChange={(e) => setMessage(e.target.value)} />
          </label>
        )}
        {fields.map((f) => (
          <label key={f.name} className="form-row">
            <span>
              {f.name} <span className="muted">{f.type}</span>
            </span>
            {f.type === 'boolean' ? (
              <select className="input select" aria-label={f.name} value={values[f.name] ?? 'false'} onChange={(e) => setValues((v) => ({ ...v, [f.name]: e.target.value }))}>
                <option value="false">false</option>
                <option value="true">true</option>
              </select>
            ) : f.type === 'object' || f.type === 'array' ? (
              <textarea className="input mono" aria-label={f.name} rows={3} value={values[f.name] ?? ''} onChange={(e) => setValues((v) => ({ ...v, [f.name]: e.target.value }))} />
            ) : (
              <input className="input" aria-label={f.name} value={values[f.name] ?? ''} onChange={(e) => setValues((v) => ({ ...v, [f.name]: e.target.value }))} />
            )}
          </label>
        ))}
        {error && (
          <p className="form-error" role="alert">
            {error}
          </p>
        )}
        <div className="dialog-actions">
          <button type="button" className="btn" onClick={onClose}>
            Cancel
          </button>
          <button type="submit" className="btn btn-run">
            Run
          </button>
        </div>
      </form>
    </div>
  );
}
