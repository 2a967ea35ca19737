import { lazy, Suspense, useEffect, useRef, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { api } from './api';
import { Canvas } from './Canvas';
import { AuthPage } from './pages/AuthPage';
import { PaymentsPage } from './pages/PaymentsPage';
import { navigate, useLocation } from './router';
import { EmptyHome } from './shell/EmptyHome';
import { isSidebarShortcut, isTypingIn } from './shell/keys';
import { Sidebar } from './shell/Sidebar';
import { adoptLayoutChoices, keepSidebarForNow, saveLayoutChoicesWith, toggleLayout, useLayout } from './shell/useLayout';
import { LoadBoundary } from './ui/LoadBoundary';
import { useToast } from './ui/toast';

const SettingsPage = lazy(() => import('./settings/SettingsPage').then((m) => ({ default: m.SettingsPage })));
const SchedulesPage = lazy(() => import('./pages/SchedulesPage').then((m) => ({ default: m.SchedulesPage })));

/** A page of the signed-in app other than the editor: a settings tab, or the workspace's schedules. */
type ShellPage = { kind: 'settings'; tab: string } | { kind: 'schedules' };

/** The signed-in app: sidebar, and the open workflow's canvas, a settings page or the workspace's schedules. */
function Shell({ page }: { page: ShellPage | null }) {
  const settingsTab = page?.kind === 'settings' ? page.tab : null;
  const toast = useToast();
  const { query } = useLocation();
  const session = useQuery({ queryKey: ['session'], queryFn: api.session, staleTime: Infinity });
  const workspaces = useQuery({ queryKey: ['workspaces'], queryFn: api.workspaces, enabled: session.data !== null });
  const [workspaceId, setWorkspaceId] = useState<string | null>(null);
  const workspace = workspaces.data?.find((w) => w.id === workspaceId) ?? workspaces.data?.[0];
  const activeId = query.get('workflow');
  const autoOpened = useRef<string | null>(null);
  const switching = useRef(false);
  const workflows = useQuery({ queryKey: ['workflows', workspace?.id ?? ''], queryFn: () => api.workflows(workspace?.id ?? ''), enabled: Boolean(workspace) });

  const open = (id: string | null) => navigate(id ? `/?workflow=${encodeURIComponent(id)}` : '/');
  // With no workflow open the sidebar starts open: it is the way to one (layoutDefaults).
  const screen = page || !activeId ? 'home' : 'editor';
  const layout = useLayout(screen);
  // A workflow the user opens from there keeps the sidebar as it was drawn (no jump under the pointer);
  // the first workflow opened by itself (spec 000 §4) follows the editor's default.
  const openChosen = (id: string | null) => {
    if (id && screen === 'home' && layout.sidebarOpen) keepSidebarForNow();
    open(id);
  };

  // Ctrl+\ opens or collapses the sidebar, away from a text field (the canvas's own shortcuts are in Canvas.tsx).
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (!isSidebarShortcut(e) || isTypingIn(e.target)) return;
      e.preventDefault();
      toggleLayout('sidebarOpen', screen);
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [screen]);

  // The layout choices follow the user across browsers: the ones saved in their settings are taken on load, new ones are sent there.
  const settings = useQuery({ queryKey: ['settings'], queryFn: api.settings, enabled: Boolean(session.data), staleTime: Infinity });
  useEffect(() => {
    if (settings.data) adoptLayoutChoices(settings.data.layout);
  }, [settings.data]);
  useEffect(() => {
    if (!session.data) return;
    saveLayoutChoicesWith((layout) => api.saveSettings({ layout }));
    return () => saveLayoutChoicesWith(undefined);
  }, [session.data]);

  useEffect(() => {
    if (session.data === null) navigate(`/sign-in?next=${encodeURIComponent(window.location.pathname + window.location.search)}`, true);
  }, [session.data]);

  // Spec 000 §4: once a workspace's list has loaded, its first workflow becomes active when none is.
  useEffect(() => {
    if (!workspace || !workflows.data || autoOpened.current === workspace.id || page) return;
    autoOpened.current = workspace.id;
    switching.current = false;
    if (!activeId && workflows.data[0]) open(workflows.data[0].id);
  }, [workspace, workflows.data, activeId, page]);

  useEffect(() => {
    if (switching.current && workflows.error) {
      switching.current = false;
      toast.error(`Failed to switch workspace: ${workflows.error.message}`);
    }
  }, [workflows.error, toast]);

  const switchWorkspace = (id: string) => {
    // A switch in progress ignores another; the flag clears itself after 5 s (spec 000 §4).
    if (switching.current || id === workspace?.id) return;
    switching.current = true;
    window.setTimeout(() => (switching.current = false), 5000);
    setWorkspaceId(id);
    open(null);
  };

  if (session.isLoading) return <div className="splash">Loading…</div>;
  if (session.error) return <div className="splash error">Could not reach the server: {session.error.message}</div>;
  const notFound = activeId && workflows.data && !workflows.data.some((w) => w.id === activeId);
  return (
    <div className="app">
      <Sidebar
        workspaces={workspaces.data ?? []}
        workspace={workspace}
        onWorkspace={switchWorkspace}
        activeId={page ? null : activeId}
        onOpen={openChosen}
        userName={session.data?.user.name ?? ''}
        open={layout.sidebarOpen}
        onToggle={() => toggleLayout('sidebarOpen', screen)}
      />
      <main className="main">
        {settingsTab ? (
          <LoadBoundary fallback={(message) => <p className="empty error">{message}</p>}>
            <Suspense fallback={<p className="empty">Loading…</p>}>
              <SettingsPage tab={settingsTab} workspace={workspace} />
            </Suspense>
          </LoadBoundary>
        ) : page?.kind === 'schedules' ? (
          <LoadBoundary fallback={(message) => <p className="empty error">{message}</p>}>
            <Suspense fallback={<p className="empty">Loading…</p>}>
              <SchedulesPage workspace={workspace} />
            </Suspense>
          </LoadBoundary>
        ) : activeId ? (
          <Canvas key={activeId} workflowId={activeId} listed={!notFound} />
        ) : workspaces.isLoading || workflows.isLoading ? (
          <p className="splash">Loading…</p>
        ) : (
          <EmptyHome workspace={workspace} hasWorkflows={Boolean(workflows.data?.length)} sidebarOpen={layout.sidebarOpen} onOpen={openChosen} />
        )}
      </main>
    </div>
  );
}

/** The app's pages by path: sign-in, sign-up, payments, settings, the workspace's schedules, and the editor. */
export function App() {
  const { path, query } = useLocation();
  if (path === '/sign-in') return <AuthPage mode="sign-in" />;
  if (path === '/sign-up') return <AuthPage mode="sign-up" />;
  if (path === '/payments') return <PaymentsPage message={query.get('reason')} />;
  if (path === '/schedules') return <Shell page={SCHEDULES} />;
  const settings = /^\/settings(?:\/([\w-]+))?/.exec(path);
  return <Shell page={settings ? { kind: 'settings', tab: settings[1] ?? 'environment' } : null} />;
}

const SCHEDULES: ShellPage = { kind: 'schedules' };

