import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { getPublicConfig } from './api/public-config';
import { App } from './app';
import { getDisplayTimeZone, setDisplayTimeZone } from './lib/relative-time';

const container = document.getElementById('root');
if (!container) throw new Error('index.html has no #root element');

const root = createRoot(container);
const render = () =>
  root.render(
    <StrictMode>
      <App key={getDisplayTimeZone()} />
    </StrictMode>,
  );
render();

// Relative dates count calendar days of the server's readers' zone (TIME_ZONE), as its publication
// windows do. The labels start in the default zone (Asia/Shanghai) so the first paint waits for
// nothing; an installation configured for another zone re-renders once when its public settings
// arrive. A backend without GET /api/config/ keeps the default.
getPublicConfig()
  .then(({ timeZone }) => {
    const before = getDisplayTimeZone();
    setDisplayTimeZone(timeZone);
    if (getDisplayTimeZone() !== before) render();
  })
  .catch(() => {});
