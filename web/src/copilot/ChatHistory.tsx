import { Menu, MenuItem } from '../ui/Menu';
import { chatTitle, timeAgo, type ChatSummary } from './storedChat';

/** The copilot's history menu: the user's earlier chats of the workflow, newest first, each reopened by a click. */
export function ChatHistory({ chats, current, disabled, onOpen }: { chats: ChatSummary[]; current: string | undefined; disabled: boolean; onOpen(chatId: string): void }) {
  const now = Date.now();
  return (
    <Menu label="Chat history" className={`copilot-history${disabled ? ' copilot-history-off' : ''}`}>
      {(close) =>
        chats.length === 0 ? (
          <p className="copilot-history-empty muted">No chats yet</p>
        ) : (
          chats.map((c) => (
            <MenuItem key={c.id} onSelect={() => (close(), disabled ? undefined : onOpen(c.id))}>
              <span className={`copilot-history-title${c.id === current ? ' current' : ''}`} title={c.title}>
                {chatTitle(c.title)}
              </span>
              <span className="copilot-history-time muted">{timeAgo(c.updatedAt, now)}</span>
            </MenuItem>
          ))
        )
      }
    </Menu>
  );
}
