import { useEffect, useMemo, useState } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { TriggerSchedule } from '@weft/catalog';
import type { WorkflowState } from '@weft/workflow';
import { api } from '../api';
import { CopyButton } from '../panels/fields/Integrations';
import { fireTimesText, nextFireTimes } from '../panels/fields/schedule';
import { failure } from '../shell/workflowActions';
import { useConfirm } from '../ui/confirm';
import { Icon } from '../ui/icons';
import { useToast } from '../ui/toast';
import { curlExample, deployInfo, streamingBlocks, webhookCurlExample } from './deployInfo';
import { ScheduleState, schedulesKey } from './ScheduleState';

function NextRuns({ plan }: { plan: TriggerSchedule }) {
  const [runs, setRuns] = useState<string[] | string>([]);
  const key = JSON.stringify(plan);
  useEffect(() => {
    let live = true;
    nextFireTimes(plan, new Date()).then(
      (dates) => live && setRuns(fireTimesText(dates, plan)),
      (error: unknown) => live && setRuns(error instanceof Error ? error.message : String(error)),
    );
    return () => {
      live = false;
    };
  }, [key]);
  if (typeof runs === 'string') return <p className="error">{runs}</p>;
  return (
    <ol className="next-runs" aria-label="Next scheduled runs">
      {runs.map((r) => (
        <li key={r}>{r}</li>
      ))}
    </ol>
  );
}

/** A generic webhook's test call, with a copy button (none for providers that sign their calls). */
function WebhookCurl({ hook }: { hook: { url: string; secret: string; provider: string } }) {
  // Shown with the token masked, as the secret field above is; the copied command carries the token (shell-quoted).
  const curl = webhookCurlExample(hook);
  const shown = webhookCurlExample(hook, true);
  if (!curl || !shown) return null;
  return (
    <div className="copy-row" style={{ alignItems: 'flex-start', marginTop: 6 }}>
      <pre className="curl" aria-label="Webhook curl example" style={{ flex: 1, minWidth: 0 }}>
        {shown}
      </pre>
      <CopyButton text={curl} label="Copy webhook curl command" />
    </div>
  );
}

/**
 * Deploy panel: deploy or undeploy the draft, "changes not deployed", versions with activate and
 * revert, the API key with a curl example, the webhook URL and secret (a generic hook's with a curl example), the schedule's next runs,
 * and the problems that block a deploy, each opening its block (one of the whole workflow, with no block, is its message alone).
 */
export function DeployDialog({ workflowId, state, onClose, onShowBlock }: { workflowId: string; state: WorkflowState; onClose(): void; onShowBlock(id: string): void }) {
  const toast = useToast();
  const confirm = useConfirm();
  const queries = useQueryClient();
  const status = useQuery({ queryKey: ['deployment', workflowId], queryFn: () => api.deployment(workflowId), refetchInterval: 3_000 });
  const versions = useQuery({ queryKey: ['deployments', workflowId], queryFn: () => api.deployments(workflowId) });
  const origin = window.location.origin;
  const info = useMemo(() => deployInfo(state, origin), [state, origin]);
  const streamable = useMemo(() => streamingBlocks(state), [state]);
  // The blocks whose tokens the curl example streams (selectedOutputs), by id.
  const [streamed, setStreamed] = useState<ReadonlySet<string>>(new Set());
  const toggleStreamed = (id: string) =>
    setStreamed((now) => {
      const next = new Set(now);
      if (!next.delete(id)) next.add(id);
      return next;
    });
  // The deployed schedules (running or paused), once something is deployed that may have some.
  const deployed = status.data?.isDeployed ?? false;
  const live = useQuery({ queryKey: schedulesKey(workflowId), queryFn: () => api.schedules(workflowId), enabled: deployed && info.schedules.length > 0 });
  const refresh = () => {
    void queries.invalidateQueries({ queryKey: schedulesKey(workflowId) });
    void queries.invalidateQueries({ queryKey: ['deployment', workflowId] });
    void queries.invalidateQueries({ queryKey: ['deployments', workflowId] });
    void queries.invalidateQueries({ queryKey: ['workflows'] });
  };
  const failed = (verb: 'deploy' | 'undeploy' | 'revert') => (error: Error) => toast.error(failure(verb, error));
  const deploy = useMutation({ mutationFn: () => api.deploy(workflowId), onSuccess: () => (toast.success('Deployed'), refresh()), onError: failed('deploy') });
  const undeploy = useMutation({ mutationFn: () => api.undeploy(workflowId), onSuccess: () => (toast.success('Undeployed'), refresh()), onError: failed('undeploy') });
  // Undeploying stops every way in at once, as n8n and Sim ask before they deactivate: asked first.
  const confirmUndeploy = async () => {
    const yes = await confirm({
      title: 'Undeploy the workflow?',
      message: 'Its API, webhooks and schedules stop until it is deployed again. Its versions are kept.',
      confirmLabel: 'Undeploy',
      icon: 'rocket',
    });
    if (yes) undeploy.mutate();
  };
  // Reverting replaces the draft's changes since the deploy: asked first, as undeploying is.
  const confirmRevert = async () => {
    const yes = await confirm({
      title: 'Revert the draft to the deployed version?',
      message: 'The changes made since the last deploy are replaced by the deployed version.',
      confirmLabel: 'Revert',
      icon: 'undo',
    });
    if (yes) revert.mutate();
  };
  const activate = useMutation({ mutationFn: (v: number) => api.activateDeployment(workflowId, v), onSuccess: () => (toast.success('Version activated'), refresh()), onError: (error) => toast.error(`Failed to activate the version: ${error.message}`) });
  const revert = useMutation({ mutationFn: () => api.revertToDeployed(workflowId), onSuccess: () => (toast.success('The draft is the deployed version again'), refresh()), onError: failed('revert') });

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => e.key === 'Escape' && onClose();
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [onClose]);

  const s = status.data;
  const curl = s?.apiKey
    ? curlExample(
        origin,
        workflowId,
        s.apiKey,
        {},
        streamable.filter((b) => streamed.has(b.id)).map((b) => b.name),
      )
    : '';
  const busy = deploy.isPending || undeploy.isPending || activate.isPending || revert.isPending;
  // A deploy the server would refuse for the problems listed: the button says so instead of trying.
  const blocked = info.problems.length > 0;
  return (
    <div className="backdrop" onMouseDown={(e) => e.target === e.currentTarget && onClose()}>
      <div className="dialog" role="dialog" aria-modal="true" aria-label="Deploy">
        <div className="deploy-status">
          <h2>Deploy</h2>
          {s && <span className={`pill ${s.isDeployed ? 'pill-live' : ''}`}>{s.isDeployed ? 'Deployed' : 'Not deployed'}</span>}
          {s?.isDeployed && s.needsRedeployment && <span className="pill pill-warn">Changes not deployed</span>}
          <button type="button" className="icon-btn" style={{ marginLeft: 'auto' }} aria-label="Close" onClick={onClose}>
            <Icon name="x" />
          </button>
        </div>
        {status.error && <p className="form-error">{status.error.message}</p>}
        {s?.deployedAt && <p className="muted">Deployed {new Date(s.deployedAt).toLocaleString()}</p>}

        {info.problems.length > 0 && (
          <section aria-label="Problems">
            <h3>Fix these before deploying</h3>
            <ul className="problem-list">
              {info.problems.map(({ blockId, blockName, field, message }, i) => (
                <li key={`${blockId ?? ''}-${field}-${i}`}>
                  {/* A problem of the whole workflow (no starter block) has no block to open: its message alone. */}
                  {blockId === undefined ? (
                    message
                  ) : (
                    <>
                      <button type="button" onClick={() => (onShowBlock(blockId), onClose())}>
                        {blockName ?? blockId}
                      </button>
                      : {message}
                    </>
                  )}
                </li>
              ))}
            </ul>
          </section>
        )}

        <div className="dialog-actions" style={{ justifyContent: 'flex-start' }}>
          {s?.isDeployed && !s.needsRedeployment ? (
            // Deployed and the draft unchanged since: nothing to redeploy.
            <button type="button" className="btn" disabled title="The deployed version is the draft: nothing to redeploy">
              <Icon name="check" size={14} /> Up to date
            </button>
          ) : (
            <button type="button" className="btn btn-primary" disabled={busy || blocked} title={blocked ? 'Fix the problems listed above before deploying' : undefined} onClick={() => deploy.mutate()}>
              <Icon name="rocket" size={14} /> {s?.isDeployed ? 'Redeploy' : 'Deploy'}
            </button>
          )}
          {s?.isDeployed && (
            <>
              <button type="button" className="btn" disabled={busy || !s.needsRedeployment} onClick={() => void confirmRevert()}>
                Revert draft to deployed
              </button>
              <button type="button" className="btn btn-danger" disabled={busy} onClick={() => void confirmUndeploy()}>
                Undeploy
              </button>
            </>
          )}
        </div>

        {s?.isDeployed && s.apiKey && (
          <section aria-label="API">
            <h3>API key</h3>
            <div className="copy-row">
              <input className="input" readOnly aria-label="Deployment API key" value={s.apiKey} />
              <CopyButton text={s.apiKey} label="Copy API key" />
            </div>
            <h3 style={{ marginTop: 10 }}>Call it</h3>
            {streamable.length > 0 && (
              <div className="chips" role="group" aria-label="Stream the tokens of" style={{ marginBottom: 6 }}>
                <span className="muted">Stream the tokens of</span>
                {streamable.map((b) => (
                  <label key={b.id} className={`chip ${streamed.has(b.id) ? 'on' : ''}`}>
                    <input type="checkbox" checked={streamed.has(b.id)} onChange={() => toggleStreamed(b.id)} />
                    {b.name}
                  </label>
                ))}
              </div>
            )}
            <div className="copy-row" style={{ alignItems: 'flex-start' }}>
              <pre className="curl" aria-label="curl example" style={{ flex: 1, minWidth: 0 }}>
                {curl}
              </pre>
              <CopyButton text={curl} label="Copy curl command" />
            </div>
          </section>
        )}

        {info.webhooks.map((hook) => (
          <section key={hook.blockId} aria-label={info.webhooks.length > 1 ? `Webhook ${hook.blockName}` : 'Webhook'}>
            <h3>Webhook{info.webhooks.length > 1 && <span className="muted"> ({hook.blockName})</span>}</h3>
            <div className="copy-row">
              <input className="input" readOnly aria-label="Webhook URL" value={hook.url} />
              <CopyButton text={hook.url} label="Copy webhook URL" />
            </div>
            {hook.secret && (
              <div className="copy-row" style={{ marginTop: 6 }}>
                <input className="input" readOnly type="password" aria-label="Webhook secret" value={hook.secret} />
                <CopyButton text={hook.secret} label="Copy webhook secret" />
              </div>
            )}
            <WebhookCurl hook={hook} />
            {hook.starter && s && !s.hasActiveWebhook && s.isDeployed && <p className="muted">The webhook is not active.</p>}
          </section>
        ))}

        {info.schedules.map((schedule) => (
          <section key={schedule.blockId} aria-label={info.schedules.length > 1 ? `Schedule of ${schedule.blockName}` : 'Schedule'}>
            <h3>
              {info.schedules.length > 1 ? `Schedule — ${schedule.blockName}` : 'Schedule'} {schedule.cron && <span className="mono">({schedule.cron}, {schedule.timezone})</span>}
            </h3>
            {schedule.error ? <p className="error">{schedule.error}</p> : schedule.plan && <NextRuns plan={schedule.plan} />}
            {deployed && live.error && <p className="error">{live.error.message}</p>}
            {deployed && live.data && <ScheduleState workflowId={workflowId} blockId={schedule.blockId} live={live.data.find((l) => l.blockId === schedule.blockId)} />}
          </section>
        ))}

        <section aria-label="Versions">
          <h3>Versions</h3>
          {versions.error && <p className="error">{versions.error.message}</p>}
          {versions.data?.length === 0 && <p className="muted">Nothing deployed yet.</p>}
          {versions.data && versions.data.length > 0 && (
            <ul className="version-list">
              {[...versions.data]
                .sort((a, b) => b.version - a.version)
                .map((v) => (
                  <li key={v.version}>
                    <strong>v{v.version}</strong>
                    <span className="muted">{new Date(v.deployedAt).toLocaleString()}</span>
                    {v.blocksCount !== undefined && <span className="muted">{v.blocksCount} blocks</span>}
                    <span style={{ marginLeft: 'auto' }}>
                      {/* Undeployed, the version last active is not running: activating it deploys it again. */}
                      {v.isActive && s?.isDeployed ? (
                        <span className="pill pill-live">Active</span>
                      ) : (
                        <button type="button" className="btn btn-sm" disabled={busy} onClick={() => activate.mutate(v.version)}>
                          Activate v{v.version}
                        </button>
                      )}
                    </span>
                  </li>
                ))}
            </ul>
          )}
        </section>
      </div>
    </div>
  );
}
