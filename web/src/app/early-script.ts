/**
 * The early script: built on its own as a classic script (web/vite.config.ts) that index.html runs
 * before the app's modules. A module script runs only once every module it imports has arrived and been
 * compiled (React, MUI and the shell: about 300 ms of a cold load on a quiet 2-core machine, more under
 * load), so the account's request, sent from the app's entry, waited for all of them. From here it
 * leaves as the document is parsed; the app takes the answer over (lib/early-answers).
 *
 * It also starts the app's entry (index.html names it in `data-entry`; the build preloads its files
 * meanwhile). On /papers and /news it waits until the early view (app/early-view) has painted: the
 * entry's evaluation is one long task of the main thread, and a view drawn just before it would not
 * paint until it ends. Everywhere else, or when the answers are slow, the entry starts at once or after
 * ENTRY_WAIT_MAX_MS at the latest, so the app is never held back for long.
 */
import { startEarlyGets } from './early-gets';

/** The longest the entry waits for the early view, from the moment this script runs. */
const ENTRY_WAIT_MAX_MS = 1000;

const entry = document.currentScript?.getAttribute('data-entry');
const earlyView = startEarlyGets(window.location.pathname);
if (entry) {
  let isStarted = false;
  const startEntry = () => {
    if (isStarted) return;
    isStarted = true;
    const script = document.createElement('script');
    script.type = 'module';
    // As the build's modulepreload links ask for them, so the preloaded modules are the ones used.
    script.crossOrigin = '';
    script.src = entry;
    document.head.appendChild(script);
  };
  // The entry renders into #root, which the parser reaches after this script.
  const startWhenParsed = () => {
    if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', startEntry, { once: true });
    else startEntry();
  };
  earlyView.then((isDrawn) => {
    // After the frame that paints the early view (a hidden tab paints none: the timer below starts it).
    if (isDrawn) requestAnimationFrame(() => setTimeout(startWhenParsed, 0));
    else startWhenParsed();
  });
  setTimeout(startWhenParsed, ENTRY_WAIT_MAX_MS);
}
