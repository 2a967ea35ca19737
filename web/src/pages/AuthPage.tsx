import { useState, type FormEvent } from 'react';
import { api, ApiError } from '../api';
import { navigate } from '../router';
import { useToast } from '../ui/toast';

/** Where to go after signing in: the page that sent the user here (same origin paths only). */
function nextPath(): string {
  const next = new URLSearchParams(window.location.search).get('next') ?? '/';
  return next.startsWith('/') && !next.startsWith('//') ? next : '/';
}

/** Sign-in and sign-up, one page each (`/sign-in`, `/sign-up`); failures show in a toast and under the form. */
export function AuthPage({ mode }: { mode: 'sign-in' | 'sign-up' }) {
  const toast = useToast();
  const [name, setName] = useState('');
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [error, setError] = useState('');
  const [busy, setBusy] = useState(false);
  const signUp = mode === 'sign-up';

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setError('');
    try {
      if (signUp) await api.signUp(name.trim() || email.split('@')[0] || 'New user', email, password);
      else await api.signIn(email, password);
      // A full load: the session cookie is new, and the gateway serves the app to it.
      window.location.assign(nextPath());
    } catch (e) {
      const message = e instanceof ApiError ? e.message : 'Could not reach the server';
      setError(message);
      toast.error(message);
      setBusy(false);
    }
  };
  const other = signUp ? '/sign-in' : '/sign-up';
  const keep = window.location.search;

  return (
    <div className="auth-page">
      <div className="auth-brand">
        <span className="logo-mark" aria-hidden="true" />
        <span>Weft</span>
      </div>
      <form className="auth-card" onSubmit={(e) => void submit(e)} aria-label={signUp ? 'Sign up' : 'Sign in'}>
        <h1>{signUp ? 'Create your account' : 'Welcome back'}</h1>
        <p className="auth-sub">{signUp ? 'Build AI workflows together, live.' : 'Sign in to continue to your workflows.'}</p>
        {signUp && (
          <label className="form-row">
            <span>Name</span>
            <input className="input" value={name} onChange={(e) => setName(e.target.value)} autoComplete="name" placeholder="Ada Lovelace" />
          </label>
        )}
        <label className="form-row">
          <span>Email</span>
          <input className="input" type="email" required value={email} onChange={(e) => setEmail(e.target.value)} autoComplete="email" placeholder="you@example.com" />
        </label>
        <label className="form-row">
          <span>Password</span>
          <input
            className="input"
            type="password"
            required
            minLength={8}
            value={password}
            onChange={(e) => setPassword(e.target.value)}
            autoComplete={signUp ? 'new-password' : 'current-password'}
            placeholder="8 characters or more"
          />
        </label>
        {error && <p className="form-error">{error}</p>}
        <button className="btn btn-primary btn-block" type="submit" disabled={busy}>
          {busy ? 'Please wait…' : signUp ? 'Sign up' : 'Sign in'}
        </button>
        <p className="auth-switch">
          {signUp ? 'Have an account?' : 'No account yet?'}{' '}
          <a
            href={`${other}${keep}`}
            onClick={(e) => {
              e.preventDefault();
              navigate(`${other}${keep}`);
            }}
          >
            {signUp ? 'Sign in' : 'Sign up'}
          </a>
        </p>
      </form>
    </div>
  );
}
