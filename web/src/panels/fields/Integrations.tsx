import { useEffect, useId, useState, type InputHTMLAttributes } from 'react';
import { useQuery } from '@tanstack/react-query';
import { normalizeWebhookPath, webhookPathError, workflowOptions, type SubBlockConfig } from '@weft/catalog';
import { api, type OAuthCredential } from '../../api';
import { Icon } from '../../ui/icons';
import { useToast } from '../../ui/toast';
import { defaultWebhookPath, webhookUrl } from '../../deploy/deployInfo';
import { useDraft } from '../useDraft';
import { useFormEnv } from './FormContext';

interface Props {
  field: SubBlockConfig;
  label: string;
  value: unknown;
  onChange(value: unknown): void;
}

/** A provider id as people read it. */
export const providerName = (p: string) => p.replace(/[-_]/g, ' ').replace(/\b\w/g, (c) => c.toUpperCase());

/** Whether a stored credential serves the field's provider (google-email serves 'google-email' and 'google'). */
export function servesProvider(credential: Pick<OAuthCredential, 'providerId'>, provider: string | undefined): boolean {
  if (!provider) return true;
  const id = credential.providerId.toLowerCase();
  const want = provider.toLowerCase();
  return id === want || id.startsWith(`${want}-`) || want.startsWith(`${id}-`) || id.split('-')[0] === want.split('-')[0];
}

/**
 * An OAuth account picker: the user's connected accounts for the field's provider, and a button
 * that opens the provider's consent page; the list refreshes when the user comes back.
 */
export function OAuthField({ field, label, value, onChange }: Props) {
  const id = useId();
  const credentials = useQuery({ queryKey: ['oauth-credentials'], queryFn: api.oauthCredentials });
  const provider = field.provider ?? field.serviceId ?? '';
  const mine = (credentials.data ?? []).filter((c) => servesProvider(c, provider));
  const current = typeof value === 'string' ? value : '';
  useEffect(() => {
    const again = () => void credentials.refetch();
    window.addEventListener('focus', again);
    return () => window.removeEventListener('focus', again);
  }, [credentials]);
  const connect = () => {
    window.open(`/api/auth/oauth/authorize/${encodeURIComponent(provider)}`, 'weft-oauth', 'width=560,height=720');
  };
  return (
    <div className="field field-oauth">
      <label htmlFor={id}>{label}</label>
      <div className="oauth-row">
        <select id={id} className="input select" value={current} onChange={(e) => onChange(e.target.value)}>
          <option value="">{mine.length === 0 ? `No ${providerName(provider)} account connected` : 'Choose an account…'}</option>
          {mine.map((c) => (
            <option key={c.id} value={c.id}>
              {providerName(c.providerId)} · {c.id.slice(0, 8)}
            </option>
          ))}
          {current && !mine.some((c) => c.id === current) && <option value={current}>{current}</option>}
        </select>
        <button type="button" className="btn btn-sm" onClick={connect}>
          <Icon name="link" size={13} /> Connect {providerName(provider)}
        </button>
      </div>
      {field.requiredScopes && field.requiredScopes.length > 0 && <span className="field-hint-line">Needs: {field.requiredScopes.slice(0, 4).join(', ')}{field.requiredScopes.length > 4 ? '…' : ''}</span>}
    </div>
  );
}

/** Files kept in the block's value: name, type, size, and the content as a data URL. */
export interface StoredFile {
  name: string;
  type: string;
  size: number;
  url: string;
}

function readFile(file: File): Promise<StoredFile> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve({ name: file.name, type: file.type, size: file.size, url: String(reader.result) });
    reader.onerror = () => reject(reader.error ?? new Error(`could not read ${file.name}`));
    reader.readAsDataURL(file);
  });
}

/** Largest file the workflow state keeps inline (there is no upload route yet). */
export const INLINE_FILE_LIMIT = 1024 * 1024;

/** File upload: the field's accepted types, one or many, each under the size limit. */
export function FileUploadField({ field, label, value, onChange }: Props) {
  const id = useId();
  const toast = useToast();
  const files: StoredFile[] = Array.isArray(value) ? (value as StoredFile[]) : value && typeof value === 'object' ? [value as StoredFile] : [];
  const limit = Math.min((field.maxSize ?? 100) * 1024 * 1024, INLINE_FILE_LIMIT);
  const [over, setOver] = useState(false);
  const take = async (list: FileList | null) => {
    if (!list) return;
    const chosen = [...list];
    const tooBig = chosen.filter((f) => f.size > limit);
    for (const f of tooBig) toast.error(`${f.name} is larger than ${Math.round(limit / 1024)} KB`);
    const read = await Promise.all(chosen.filter((f) => f.size <= limit).map(readFile));
    if (read.length === 0) return;
    onChange(field.multiple ? [...files, ...read] : read[0]);
  };
  return (
    <div className="field field-file">
      <span className="field-label">{label}</span>
      <label
        htmlFor={id}
        className={`dropzone${over ? ' over' : ''}`}
        onDragOver={(e) => {
          e.preventDefault();
          setOver(true);
        }}
        onDragLeave={() => setOver(false)}
        onDrop={(e) => {
          e.preventDefault();
          setOver(false);
          void take(e.dataTransfer.files);
        }}
      >
        <Icon name="upload" size={18} />
        <span>Drop {field.multiple ? 'files' : 'a file'} here or click to choose</span>
        <span className="muted">{field.acceptedTypes ?? 'Any type'} · up to {Math.round(limit / 1024)} KB</span>
      </label>
      <input id={id} type="file" hidden accept={field.acceptedTypes} multiple={field.multiple} aria-label={`${label} file`} onChange={(e) => void take(e.target.files)} />
      {files.length > 0 && (
        <ul className="file-list">
          {files.map((f, i) => (
            <li key={`${f.name}-${i}`}>
              <Icon name="download" size={12} /> <span className="file-name">{f.name}</span> <span className="muted">{Math.max(1, Math.round(f.size / 1024))} KB</span>
              <button type="button" className="icon-btn" aria-label={`Remove ${f.name}`} onClick={() => onChange(field.multiple ? files.filter((_, j) => j !== i) : null)}>
                <Icon name="x" size={12} />
              </button>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

/** Copies text and says so. */
export function CopyButton({ text, label }: { text: string; label: string }) {
  const toast = useToast();
  return (
    <button
      type="button"
      className="icon-btn bordered"
      aria-label={label}
      title={label}
      onClick={() => {
        void navigator.clipboard
          ?.writeText(text)
          .then(() => toast.success('Copied to the clipboard'))
          .catch(() => toast.error('Could not copy: the browser refused the clipboard'));
      }}
    >
      <Icon name="copy" size={14} />
    </button>
  );
}

/** A random secret for webhooks. */
export function randomSecret(): string {
  return Array.from(crypto.getRandomValues(new Uint8Array(24)), (b) => b.toString(16).padStart(2, '0')).join('');
}

/** What each provider calls the secret its calls are checked with, and whether it issues it (pasted) or the user chooses it. */
const BEARER = { label: 'Token (Authorization: Bearer)', issued: false };
const WEBHOOK_SECRETS: Record<string, { label: string; issued: boolean }> = {
  generic: BEARER,
  github: { label: 'Webhook secret', issued: false },
  telegram: { label: 'Secret token', issued: false },
  slack: { label: 'Signing secret', issued: true },
  discord: { label: 'Application public key', issued: true },
  microsoftteams: { label: 'Security token (HMAC)', issued: true },
  airtable: { label: 'MAC secret (base64)', issued: true },
  whatsapp: { label: 'App secret', issued: true },
  gmail: { label: 'Push token (?token= in the subscription URL)', issued: false },
};

type WebhookConfig = { path?: string; secret?: string; verifyToken?: string; responseMode?: string };

/** A text input sent on leaving it or Enter (not on every key, which would write a command per key). */
function CommitInput({ value, onCommit, ...rest }: { value: string; onCommit(v: string): void } & Omit<InputHTMLAttributes<HTMLInputElement>, 'value' | 'onChange'>) {
  const { draft, change, onFocus, onBlur, commit } = useDraft(value, (text) => {
    if (text !== value) onCommit(text);
    return true;
  });
  return <input {...rest} value={draft} onChange={(e) => change(e.target.value)} onFocus={onFocus} onBlur={onBlur} onKeyDown={(e) => e.key === 'Enter' && commit()} />;
}

/** Why a webhook path cannot be used, as the deploy check says it (`webhookPathError` of the path as stored), or undefined. */
const webhookPathProblem = (path: string): string | undefined => webhookPathError(normalizeWebhookPath(path));

/**
 * The webhook's URL, read only, with its copy button; for a path the deploy refuses (`a/../b`, which
 * clients send as `b`; characters a path may not use) the reason instead (`errorId`), never a URL
 * calls would not reach.
 */
function WebhookUrlRow({ url, error, errorId }: { url: string; error: string | undefined; errorId: string }) {
  if (error !== undefined)
    return (
      <span className="field-error" id={errorId} role="alert">
        {error}
      </span>
    );
  return (
    <div className="copy-row">
      <input className="input mono" readOnly aria-label="Webhook URL" value={url} />
      <CopyButton text={url} label="Copy webhook URL" />
    </div>
  );
}

/** The webhook's secret, masked until shown, with its copy button; sent trimmed on leaving it or Enter. */
function WebhookSecretRow({ secret, placeholder, onCommit }: { secret: string; placeholder: string; onCommit(secret: string): void }) {
  const [shown, setShown] = useState(false);
  return (
    <div className="copy-row">
      <CommitInput className="input mono" aria-label="Webhook secret" type={shown ? 'text' : 'password'} value={secret} placeholder={placeholder} autoComplete="off" onCommit={(v) => onCommit(v.trim())} />
      <button type="button" className="icon-btn bordered" aria-label={shown ? 'Hide webhook secret' : 'Show webhook secret'} onClick={() => setShown((s) => !s)}>
        <Icon name={shown ? 'eyeOff' : 'eye'} size={14} />
      </button>
      <CopyButton text={secret} label="Copy webhook secret" />
    </div>
  );
}

function GenerateSecret({ secret, onGenerate }: { secret: string; onGenerate(secret: string): void }) {
  return (
    <button type="button" className="btn btn-sm" onClick={() => onGenerate(randomSecret())}>
      {secret ? 'Regenerate secret' : 'Generate secret'}
    </button>
  );
}

/**
 * A `webhook-path` field (the starter's Webhook Path, a string, spec 000 §2 starter sub-fields): the path, then the URL it
 * is called at with its copy button once there is one (a starter has no path until one is written: deploying asks for it),
 * or why the path cannot be used when the deploy would refuse it.
 */
export function WebhookPathField({ field, label, value, onChange }: Props) {
  const env = useFormEnv();
  const errorId = useId();
  const path = typeof value === 'string' ? value : '';
  // No path yet is no error here: deploying asks for one.
  const error = path.trim() ? webhookPathProblem(path) : undefined;
  return (
    <div className="field field-webhook" role="group" aria-label={label}>
      <span className="field-label">{label}</span>
      <CommitInput className="input mono" aria-label="Webhook path" value={path} placeholder={field.placeholder} readOnly={env.readOnly} aria-invalid={error !== undefined} aria-describedby={error && errorId} onCommit={(v) => onChange(v.trim())} />
      {path.trim() ? <WebhookUrlRow url={webhookUrl(window.location.origin, path)} error={error} errorId={errorId} /> : <span className="field-hint">The URL shows once the path is set.</span>}
    </div>
  );
}

/** A `webhook-secret` field (the starter's Webhook Secret, a string): masked until shown, with copy and generate buttons, as the webhook block's. */
export function WebhookSecretField({ field, label, value, onChange }: Props) {
  const env = useFormEnv();
  const secret = typeof value === 'string' ? value : '';
  return (
    <div className="field field-webhook" role="group" aria-label={label}>
      <span className="field-label">{label}</span>
      <WebhookSecretRow secret={secret} placeholder={field.placeholder ?? ''} onCommit={onChange} />
      {!env.readOnly && <GenerateSecret secret={secret} onGenerate={onChange} />}
    </div>
  );
}

/**
 * The webhook configuration: the path (the workflow id until changed — see defaultWebhookPath; saved as soon as the form
 * opens so the shown URL is the deployed one), the URL the provider calls, the secret its calls are
 * checked with (pasted when the provider issues it, else generated), WhatsApp's verify token, and
 * whether the caller gets an answer at once or the Response block's. The value is {path, secret,
 * verifyToken, responseMode}.
 */
export function WebhookConfigField({ label, value, onChange }: Props) {
  const env = useFormEnv();
  const errorId = useId();
  const config = (value && typeof value === 'object' ? value : {}) as WebhookConfig;
  const provider = String(env.state.blocks[env.blockId]?.subBlocks.webhookProvider?.value ?? 'generic');
  const secretKind = WEBHOOK_SECRETS[provider] ?? BEARER;
  const set = (next: WebhookConfig) => onChange({ ...config, ...next });
  // A new block has no path yet: it takes the workflow id (or, when another webhook of the workflow
  // listens there, the workflow id and its block id), written once, so deploying finds it.
  // A reader's form writes nothing.
  const missingPath = config.path === undefined && !env.readOnly;
  // Read only while the block has no path (it walks every block of the workflow).
  const fallbackPath = config.path === undefined ? defaultWebhookPath(env.state.blocks, env.workflowId, env.blockId) : env.workflowId;
  useEffect(() => {
    if (missingPath) onChange({ ...config, path: fallbackPath });
  }, [missingPath]);
  const path = config.path ?? fallbackPath;
  const secret = config.secret ?? '';
  // Gmail pushes through a Pub/Sub subscription whose URL carries the token (Google's advice for push endpoints).
  const base = webhookUrl(window.location.origin, path);
  const url = provider === 'gmail' && secret ? `${base}?token=${encodeURIComponent(secret)}` : base;
  const error = webhookPathProblem(path);
  return (
    <div className="field field-webhook" role="group" aria-label={label}>
      <span className="field-label">{label}</span>
      <label className="form-row">
        <span>Path</span>
        <CommitInput className="input mono" aria-label="Webhook path" value={path} aria-invalid={error !== undefined} aria-describedby={error && errorId} onCommit={(v) => set({ path: v.trim() })} />
      </label>
      <WebhookUrlRow url={url} error={error} errorId={errorId} />
      <div className="form-row">
        <span>{secretKind.label}</span>
        <WebhookSecretRow secret={secret} placeholder={secretKind.issued ? 'Paste it from the provider' : 'None: calls are not checked'} onCommit={(v) => set({ secret: v })} />
      </div>
      {!secretKind.issued && <GenerateSecret secret={secret} onGenerate={(v) => set({ secret: v, path })} />}
      {provider === 'whatsapp' && (
        <label className="form-row">
          <span>Verify token</span>
          <CommitInput className="input mono" aria-label="Webhook verify token" value={config.verifyToken ?? ''} placeholder="The token you give Meta for the verification call" onCommit={(v) => set({ verifyToken: v.trim() })} />
        </label>
      )}
      <label className="form-row">
        <span>Answer</span>
        <select className="input select" aria-label="Webhook answer" value={config.responseMode === 'response' ? 'response' : 'immediate'} onChange={(e) => set({ responseMode: e.target.value })}>
          <option value="immediate">At once (the run goes on)</option>
          <option value="response">With the Response block (waits for the run)</option>
        </select>
      </label>
    </div>
  );
}

/** The workflow block's picker: the workspace's other workflows sorted by name (spec 000 §9). */
/** The workspace of the workflow whose block form this is ('' until known). */
export function useFormWorkspaceId(): string {
  const env = useFormEnv();
  const me = useQuery({ queryKey: ['workflow', env.workflowId], queryFn: () => api.workflow(env.workflowId) });
  return me.data?.workspaceId ?? '';
}

export function WorkflowSelectorField({ label, value, onChange }: Props) {
  const id = useId();
  const env = useFormEnv();
  const workspaceId = useFormWorkspaceId();
  const list = useQuery({ queryKey: ['workflows', workspaceId], queryFn: () => api.workflows(workspaceId), enabled: Boolean(workspaceId) });
  const options = workflowOptions(list.data ?? [], env.workflowId);
  const current = typeof value === 'string' ? value : '';
  return (
    <div className="field field-select">
      <label htmlFor={id}>{label}</label>
      <select id={id} className="input select" value={current} onChange={(e) => onChange(e.target.value)}>
        <option value="">Select a workflow</option>
        {options.map((o) => (
          <option key={o.id} value={o.id}>
            {o.label}
          </option>
        ))}
      </select>
    </div>
  );
}
