import { navigate } from '../router';
import { Icon } from '../ui/icons';

/** Where the app sends the user when the plan's workflow limit is reached (spec 000 §2, §8). */
export function PaymentsPage({ message }: { message: string | null }) {
  return (
    <div className="payments-page">
      <div className="auth-brand">
        <span className="logo-mark" aria-hidden="true" />
        <span>Weft</span>
      </div>
      <div className="payments-card">
        <h1>Upgrade your plan</h1>
        {message && (
          <p className="payments-reason" role="status">
            {message}
          </p>
        )}
        <div className="plans">
          <div className="plan">
            <h2>Free</h2>
            <p className="plan-price">$0</p>
            <ul>
              <li>Up to the workspace workflow limit</li>
              <li>Live collaboration</li>
            </ul>
            <span className="badge">Current plan</span>
          </div>
          <div className="plan plan-featured">
            <h2>Pro</h2>
            <p className="plan-price">Contact us</p>
            <ul>
              <li>More workflows per workspace</li>
              <li>Priority runs</li>
            </ul>
            <a className="btn btn-primary" href="mailto:sales@weft.example">
              Talk to sales
            </a>
          </div>
        </div>
        <button type="button" className="btn btn-ghost" onClick={() => navigate('/')}>
          <Icon name="chevron" size={14} className="flip" /> Back to workflows
        </button>
      </div>
    </div>
  );
}
