// First, so its requests go out before React, MUI and the app are evaluated (app/early-requests).
import './app/early-requests';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { publicConfigQueryOptions } from './api/public-config';
import { App } from './app';
import { createQueryClient } from './lib/query-client';
import { getDisplayTimeZone, setDisplayTimeZone } from './lib/relative-time';

const container = document.getElementById('root');
if (!container) throw new Error('index.html has no #root element');

// One client for the whole visit: the public settings asked below go into it, and the app (also when it
// re-renders for another time zone) reads them from it.
const queryClient = createQueryClient();

const root = createRoot(container);
const render = () =>
  root.render(
    <StrictMode>
      <App key={getDisplayTimeZone()} queryClient={queryClient} />
    </StrictMode>,
  );
render();

// Relative dates count calendar days of the server's readers' zone (TIME_ZONE), as its publication
// windows do. The labels start in the default zone (Asia/Shanghai) so the first paint waits for
// nothing; an installation configured for another zone re-renders once when its public settings
// arrive. A backend without GET /api/config/ keeps the default. Asked through the query cache, so the
// screens that read the same settings (usePublicConfig) do not ask again.
queryClient
  .fetchQuery(publicConfigQueryOptions())
  .then(({ timeZone }) => {
    const before = getDisplayTimeZone();
    setDisplayTimeZone(timeZone);
    if (getDisplayTimeZone() !== before) render();
  })
  .catch(() => {});
