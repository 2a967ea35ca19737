import { useEffect, useRef, useState } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, statusTextOf, type CustomTool, type OAuthCredential, type Workspace } from '../api';
import { CopyButton, providerName } from '../panels/fields/Integrations';
import { navigate } from '../router';
import { Icon } from '../ui/icons';
import { useConfirm } from '../ui/confirm';
import { useToast } from '../ui/toast';
import { KnowledgeTab } from './KnowledgeTab';
import { SettingsList, submitted } from './SettingsList';
import { CustomToolFields } from './CustomToolForm';
import { customToolsLoadMessage, customToolsSyncMessage, newToolDraft, readCustomTools, toolFromDraft, type ToolDraft } from './customTools';
import { inviteProblem } from './members';
import { environmentProblems, environmentSaveFailed, environmentToSave, isUnsaved, removedKeys, withSaved, type SavedEnvironment, type TableRow } from './environment';

const TABS = [
  { id: 'environment', title: 'Environment variables', icon: 'key' },
  { id: 'custom-tools', title: 'Custom tools', icon: 'wrench' },
  { id: 'api-keys', title: 'API keys', icon: 'key' },
  { id: 'members', title: 'Members', icon: 'users' },
  { id: 'connections', title: 'Connections', icon: 'link' },
  { id: 'knowledge', title: 'Knowledge', icon: 'PackageSearchIcon' },
] as const;

/**
 * Environment variables: a Key / Value table, values masked until shown, saved together once every row
 * is one the registry takes. What is typed and not saved is marked, and outlives a reload of the saved
 * variables (a refused save reloads them, spec 000 §7: `withSaved`).
 */
function EnvironmentTab() {
  const toast = useToast();
  const queryClient = useQueryClient();
  const loaded = useQuery({ queryKey: ['environment'], queryFn: api.environment });
  const [rows, setRows] = useState<TableRow[]>([]);
  // The saved variables the rows were laid over last, and the next row's id.
  const base = useRef<SavedEnvironment>({});
  const nextId = useRef(0);
  useEffect(() => {
    if (!loaded.data) return;
    const before = base.current;
    const now = loaded.data;
    base.current = now;
    setRows((rs) => withSaved(rs, before, now, () => nextId.current++));
  }, [loaded.data]);
  useEffect(() => {
    if (loaded.error) toast.error(`Failed to load environment variables: ${statusTextOf(loaded.error)}`);
  }, [loaded.error, toast]);
  const removed = removedKeys(rows, loaded.data ?? {});
  const dirty = removed.length > 0 || rows.some(isUnsaved);
  const save = useMutation({
    mutationFn: () => api.saveEnvironment(environmentToSave(rows)),
    onSuccess: async () => {
      // A blank row is not sent: nothing of it is left to save.
      setRows((rs) => rs.filter((r) => r.saved || r.key !== '' || r.value !== ''));
      await queryClient.invalidateQueries({ queryKey: ['environment'] });
      toast.success('Environment variables saved');
    },
    onError: async (e) => {
      toast.error(environmentSaveFailed(e));
      // On failure the variables are reloaded (spec 000 §7); the rows typed stay over them, still unsaved.
      await queryClient.invalidateQueries({ queryKey: ['environment'] });
    },
  });
  const change = (id: number, fields: Partial<{ key: string; value: string; shown: boolean }>) => {
    setRows((rs) => rs.map((r) => (r.id === id ? { ...r, ...fields } : r)));
  };
  // Checked as the registry checks, row by row: a refused save reloads the saved variables and the rows typed are gone.
  const problems = environmentProblems(rows);
  const invalid = problems.all !== undefined || problems.rows.some(Boolean);
  return (
    <div className="settings-card">
      <p className="muted">Use them in any field as <code className="tok-env">{'{{KEY}}'}</code>. Values are encrypted at rest and masked here until you show them.</p>
      <table className="kv-table wide" aria-label="Environment variables">
        <thead>
          <tr>
            <th>Key</th>
            <th>Value</th>
            <th aria-label="Actions" />
          </tr>
        </thead>
        <tbody>
          {rows.map((r, i) => (
            <tr key={r.id}>
              <td>
                <input
                  className="mono"
                  aria-label={`Key ${i + 1}`}
                  aria-invalid={problems.rows[i] ? true : undefined}
                  aria-describedby={problems.rows[i] ? `env-problem-${r.id}` : undefined}
                  value={r.key}
                  placeholder="API_KEY"
                  onChange={(e) => change(r.id, { key: e.target.value.replace(/\s/g, '_') })}
                />
                {problems.rows[i] && (
                  <span className="field-error" id={`env-problem-${r.id}`} role="alert">
                    {problems.rows[i]}
                  </span>
                )}
              </td>
              <td>
                <div className="masked">
                  <input className="mono" aria-label={`Value ${i + 1}`} type={r.shown ? 'text' : 'password'} value={r.value} onChange={(e) => change(r.id, { value: e.target.value })} />
                  <button type="button" className="icon-btn" aria-label={r.shown ? `Hide value ${i + 1}` : `Show value ${i + 1}`} onClick={() => change(r.id, { shown: !r.shown })}>
                    <Icon name={r.shown ? 'eyeOff' : 'eye'} size={14} />
                  </button>
                </div>
              </td>
              <td>
                <div className="row-actions">
                  {isUnsaved(r) && (r.key !== '' || r.value !== '') && (
                    <span className="pill pill-warn" title="Typed here and not saved yet">
                      Unsaved
                    </span>
                  )}
                  <button type="button" className="icon-btn" aria-label={`Remove ${r.key || `row ${i + 1}`}`} onClick={() => setRows((rs) => rs.filter((x) => x.id !== r.id))}>
                    <Icon name="trash" size={14} />
                  </button>
                </div>
              </td>
            </tr>
          ))}
          {rows.length === 0 && (
            <tr>
              <td colSpan={3} className="kv-empty">
                {loaded.isLoading ? 'Loading…' : 'No variables yet. Add one, then use it in any field as {{KEY}}.'}
              </td>
            </tr>
          )}
        </tbody>
      </table>
      {problems.all && <p className="form-error">{problems.all}</p>}
      {removed.length > 0 && <p className="muted">Removed, not saved yet: {removed.join(', ')}</p>}
      <div className="settings-actions">
        <button
          type="button"
          className="btn"
          onClick={() => setRows((rs) => [...rs, { id: nextId.current++, key: '', value: '', shown: true }])}
        >
          <Icon name="plus" size={14} /> Add variable
        </button>
        <button type="button" className="btn btn-primary" disabled={!dirty || save.isPending || invalid} onClick={() => save.mutate()}>
          {save.isPending ? 'Saving…' : 'Save'}
        </button>
      </div>
    </div>
  );
}

/** Custom tools: a list, and an editor with the parameter schema (JSON) and the code (JavaScript). */
function CustomToolsTab() {
  const toast = useToast();
  const confirm = useConfirm();
  const queryClient = useQueryClient();
  const loaded = useQuery({
    queryKey: ['custom-tools-settings'],
    queryFn: async () => readCustomTools(await api.customTools()),
  });
  const [editing, setEditing] = useState<ToolDraft | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  useEffect(() => {
    if (!loaded.error) return;
    toast.error(customToolsLoadMessage(loaded.error));
  }, [loaded.error, toast]);
  const sync = useMutation({
    mutationFn: (tools: CustomTool[]) => api.saveCustomTools(tools),
    onSuccess: async () => {
      setEditing(null);
      await queryClient.invalidateQueries({ queryKey: ['custom-tools-settings'] });
      await queryClient.invalidateQueries({ queryKey: ['custom-tools'] });
      toast.success('Custom tools saved');
    },
    onError: (e) => toast.error(customToolsSyncMessage(e)),
  });
  const remove = useMutation({
    mutationFn: (id: string) => api.deleteCustomTool(id),
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: ['custom-tools-settings'] });
      await queryClient.invalidateQueries({ queryKey: ['custom-tools'] });
    },
    onError: (e) => toast.error(customToolsSyncMessage(e)),
  });
  const save = () => {
    if (!editing) return;
    const made = toolFromDraft(editing);
    setProblem('problem' in made ? made.problem : null);
    if ('problem' in made) return;
    const others = (loaded.data ?? []).filter((t) => t.id !== made.tool.id);
    sync.mutate([...others, made.tool]);
  };
  if (editing) {
    return (
      <div className="settings-card" aria-label="Custom tool editor" role="form">
        <CustomToolFields draft={editing} onChange={(update) => setEditing((ed) => ed && update(ed))} problem={problem} />
        <div className="settings-actions">
          <button type="button" className="btn" onClick={() => (setEditing(null), setProblem(null))}>
            Cancel
          </button>
          <button type="button" className="btn btn-primary" disabled={sync.isPending} onClick={save}>
            Save tool
          </button>
        </div>
      </div>
    );
  }
  return (
    <div className="settings-card">
      <SettingsList
        label="Custom tools"
        items={loaded.data}
        empty="No custom tools yet."
        error={loaded.error}
        row={(t) => ({
          key: t.id,
          icon: 'wrench',
          title: <strong>{t.title}</strong>,
          detail: t.schema.function?.description ?? t.schema.function?.name ?? '',
          actions: (
            <>
              <button type="button" className="btn btn-sm" onClick={() => setEditing({ id: t.id, title: t.title, schema: JSON.stringify(t.schema, null, 2), code: t.code })}>
                Edit
              </button>
              <button type="button" className="icon-btn" aria-label={`Delete ${t.title}`} onClick={() => void confirm({ title: `Delete “${t.title}”?`, message: 'Agents that use this tool can no longer call it.', confirmLabel: 'Delete tool' }).then((yes) => yes && remove.mutate(t.id))}>
                <Icon name="trash" size={14} />
              </button>
            </>
          ),
        })}
      />
      <button type="button" className="btn btn-primary" onClick={() => setEditing(newToolDraft())}>
        <Icon name="plus" size={14} /> New custom tool
      </button>
    </div>
  );
}

/** Personal API keys: create (the key shows once, with a copy button), list, revoke. */
function ApiKeysTab() {
  const toast = useToast();
  const confirm = useConfirm();
  const queryClient = useQueryClient();
  const keys = useQuery({ queryKey: ['api-keys'], queryFn: api.apiKeys });
  const [name, setName] = useState('');
  const [created, setCreated] = useState<string | null>(null);
  const create = useMutation({
    mutationFn: () => api.createApiKey(name.trim() || 'API key'),
    onSuccess: async (key) => {
      setCreated(key.key ?? null);
      setName('');
      await queryClient.invalidateQueries({ queryKey: ['api-keys'] });
    },
    onError: (e) => toast.error(`Failed to create API key: ${e.message}`),
  });
  const revoke = useMutation({
    mutationFn: (id: string) => api.revokeApiKey(id),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['api-keys'] }),
    onError: (e) => toast.error(`Failed to revoke API key: ${e.message}`),
  });
  return (
    <div className="settings-card">
      <p className="muted">
        Scripts send a key in the <code>x-api-key</code> header.
      </p>
      <form
        className="inline-form"
        onSubmit={submitted(() => create.mutate())}
      >
        <input className="input" aria-label="Key name" placeholder="Key name, e.g. CI" value={name} onChange={(e) => setName(e.target.value)} />
        <button type="submit" className="btn btn-primary" disabled={create.isPending}>
          Create key
        </button>
      </form>
      {created && (
        <div className="notice" role="status">
          <strong>Copy your key now: it is shown only once.</strong>
          <div className="copy-row">
            <input className="input mono" readOnly aria-label="New API key" value={created} />
            <CopyButton text={created} label="Copy API key" />
          </div>
        </div>
      )}
      <SettingsList
        label="API keys"
        items={keys.data}
        empty="No API keys yet."
        error={keys.error}
        row={(k) => ({
          key: k.id,
          icon: 'key',
          title: <strong>{k.name}</strong>,
          detail: k.createdAt ? `Created ${new Date(k.createdAt).toLocaleDateString()}` : '',
          actions: (
            <button type="button" className="btn btn-sm btn-danger" onClick={() => void confirm({ title: `Revoke “${k.name}”?`, message: 'Scripts using this key stop working at once.', confirmLabel: 'Revoke key', icon: 'key' }).then((yes) => yes && revoke.mutate(k.id))}>
              Revoke
            </button>
          ),
        })}
      />
    </div>
  );
}

const PERMISSIONS = ['admin', 'write', 'read'];

/** Workspace members and their permissions; admins invite, change and remove. */
function MembersTab({ workspace }: { workspace: Workspace | undefined }) {
  const toast = useToast();
  const confirm = useConfirm();
  const queryClient = useQueryClient();
  const id = workspace?.id ?? '';
  const members = useQuery({ queryKey: ['members', id], queryFn: () => api.permissions(id), enabled: Boolean(id) });
  const [email, setEmail] = useState('');
  const [permission, setPermission] = useState('write');
  // A refusal that names the email field (already a member), shown below it until the email changes.
  const [emailProblem, setEmailProblem] = useState<string | null>(null);
  const refresh = () => queryClient.invalidateQueries({ queryKey: ['members', id] });
  const invite = useMutation({
    mutationFn: () => api.inviteMember(id, email.trim(), permission),
    onSuccess: async () => {
      setEmail('');
      await refresh();
      toast.success('Member added');
    },
    onError: (e) => {
      const problem = inviteProblem(e, members.data?.members ?? [], email);
      if (problem.field === 'email') setEmailProblem(problem.message);
      else toast.error(problem.message);
    },
  });
  const setMember = useMutation({ mutationFn: (m: { userId: string; permission: string }) => api.setMember(id, m.userId, m.permission), onSettled: refresh, onError: (e) => toast.error(e.message) });
  const remove = useMutation({ mutationFn: (userId: string) => api.removeMember(id, userId), onSettled: refresh, onError: (e) => toast.error(e.message) });
  const admin = members.data?.permission === 'admin';
  return (
    <div className="settings-card">
      <p className="muted">
        Members of <strong>{workspace?.name}</strong>. Your permission: {members.data?.permission ?? '…'}.
      </p>
      {admin && (
        <form
          className="inline-form"
          onSubmit={submitted(() => invite.mutate())}
        >
          <input
            className="input"
            type="email"
            required
            aria-label="Member email"
            aria-invalid={emailProblem ? true : undefined}
            aria-describedby={emailProblem ? 'invite-email-problem' : undefined}
            placeholder="teammate@example.com"
            value={email}
            onChange={(e) => {
              setEmail(e.target.value);
              setEmailProblem(null);
            }}
          />
          <select className="input select compact" aria-label="Permission" value={permission} onChange={(e) => setPermission(e.target.value)}>
            {PERMISSIONS.map((p) => (
              <option key={p}>{p}</option>
            ))}
          </select>
          <button type="submit" className="btn btn-primary" disabled={invite.isPending}>
            Invite
          </button>
        </form>
      )}
      {admin && emailProblem && (
        <p className="form-error" id="invite-email-problem" role="alert">
          {emailProblem}
        </p>
      )}
      <ul className="settings-list" aria-label="Members">
        {(members.data?.members ?? []).map((m) => (
          <li key={m.userId}>
            <span className="avatar">{(m.name ?? m.email ?? '?').slice(0, 1).toUpperCase()}</span>
            <div className="grow">
              <strong>{m.name ?? m.userId}</strong>
              <div className="muted">{m.email}</div>
            </div>
            <select className="input select compact" aria-label={`Permission of ${m.email ?? m.userId}`} disabled={!admin} value={m.permission} onChange={(e) => setMember.mutate({ userId: m.userId, permission: e.target.value })}>
              {PERMISSIONS.map((p) => (
                <option key={p}>{p}</option>
              ))}
            </select>
            {admin && (
              <button type="button" className="icon-btn" aria-label={`Remove ${m.email ?? m.userId}`} onClick={() => void confirm({ title: `Remove ${m.name ?? m.email ?? m.userId}?`, message: `They lose access to ${workspace?.name ?? 'this workspace'} and its workflows.`, confirmLabel: 'Remove member', icon: 'users' }).then((yes) => yes && remove.mutate(m.userId))}>
                <Icon name="trash" size={14} />
              </button>
            )}
          </li>
        ))}
        {members.isLoading && <li className="muted">Loading members…</li>}
      </ul>
    </div>
  );
}

/** How a connected account is described under its provider's name: when, what it may do, which one. */
function connectionDetail(c: OAuthCredential): string {
  const parts = [c.createdAt ? `Connected ${new Date(c.createdAt).toLocaleDateString(undefined, { year: 'numeric', month: 'short', day: 'numeric' })}` : 'Connected'];
  if (c.scopes) parts.push(`scopes: ${c.scopes.split(/\s+/).filter(Boolean).join(', ')}`);
  parts.push(`id ${c.id.slice(0, 8)}`);
  return parts.join(' · ');
}

/** OAuth connections: the accounts connected (each can be disconnected), and a connect button per provider the catalogue's blocks use. */
function ConnectionsTab() {
  const toast = useToast();
  const confirm = useConfirm();
  const queryClient = useQueryClient();
  const credentials = useQuery({ queryKey: ['oauth-credentials'], queryFn: api.oauthCredentials });
  const disconnect = useMutation({
    mutationFn: (c: OAuthCredential) => api.disconnectOAuth(c.id),
    onSuccess: async (_data, c) => {
      await queryClient.invalidateQueries({ queryKey: ['oauth-credentials'] });
      toast.success(`${providerName(c.providerId)} account disconnected`);
    },
    onError: (e) => toast.error(`Failed to disconnect the account: ${e.message}`),
  });
  const ask = (c: OAuthCredential) =>
    void confirm({
      title: `Disconnect ${providerName(c.providerId)}?`,
      message: `Blocks that use this account (${c.id.slice(0, 8)}) fail until you connect one again. Weft deletes its tokens; revoke its access at ${providerName(c.providerId)} too if you no longer trust it.`,
      confirmLabel: 'Disconnect',
      icon: 'link',
    }).then((yes) => yes && disconnect.mutate(c));
  const blocks = useQuery({ queryKey: ['blocks'], queryFn: api.blocks, staleTime: Infinity });
  const providers = [...new Set((blocks.data ?? []).flatMap((b) => b.subBlocks.filter((s) => s.type === 'oauth-input' && s.provider).map((s) => s.provider as string)))].sort();
  useEffect(() => {
    const again = () => void credentials.refetch();
    window.addEventListener('focus', again);
    return () => window.removeEventListener('focus', again);
  }, [credentials]);
  return (
    <div className="settings-card">
      <SettingsList
        label="Connected accounts"
        items={credentials.data}
        empty="No accounts connected yet."
        error={credentials.error}
        row={(c) => ({
          key: c.id,
          icon: 'link',
          title: <strong>{providerName(c.providerId)}</strong>,
          detail: <span title={c.id}>{connectionDetail(c)}</span>,
          actions: (
            <button type="button" className="btn btn-sm btn-danger" aria-label={`Disconnect ${providerName(c.providerId)} ${c.id.slice(0, 8)}`} disabled={disconnect.isPending} onClick={() => ask(c)}>
              Disconnect
            </button>
          ),
        })}
      />
      <h3 className="settings-sub">Connect an account</h3>
      <div className="provider-grid">
        {providers.map((p) => (
          <button key={p} type="button" className="btn provider-btn" onClick={() => window.open(`/api/auth/oauth/authorize/${encodeURIComponent(p)}`, 'weft-oauth', 'width=560,height=720')}>
            <Icon name="plus" size={14} /> {providerName(p)}
          </button>
        ))}
      </div>
    </div>
  );
}

/** Settings: environment variables, custom tools, API keys, members, OAuth connections and knowledge bases, one tab each. */
export function SettingsPage({ tab, workspace }: { tab: string; workspace: Workspace | undefined }) {
  const current = TABS.find((t) => t.id === tab) ?? TABS[0];
  return (
    <div className="settings">
      <nav className="settings-nav" aria-label="Settings">
        <h1>Settings</h1>
        {TABS.map((t) => (
          <button key={t.id} type="button" className={`nav-link${t.id === current.id ? ' active' : ''}`} aria-current={t.id === current.id ? 'page' : undefined} onClick={() => navigate(`/settings/${t.id}`)}>
            <Icon name={t.icon} /> {t.title}
          </button>
        ))}
      </nav>
      <section className="settings-body" aria-label={current.title}>
        <h2>{current.title}</h2>
        {current.id === 'environment' && <EnvironmentTab />}
        {current.id === 'custom-tools' && <CustomToolsTab />}
        {current.id === 'api-keys' && <ApiKeysTab />}
        {current.id === 'members' && <MembersTab workspace={workspace} />}
        {current.id === 'connections' && <ConnectionsTab />}
        {current.id === 'knowledge' && <KnowledgeTab workspace={workspace} />}
      </section>
    </div>
  );
}
