/**
 * The early script: built on its own as a classic script (web/vite.config.ts) that index.html runs
 * before the app's modules. A module script runs only once every module it imports has arrived and been
 * compiled (React, MUI and the shell: about 300 ms of a cold load on a quiet 2-core machine, more under
 * load), so the account's request, sent from the app's entry, waited for all of them. From here it
 * leaves as the document is parsed; the app takes the answer over (lib/early-answers).
 */
import { startEarlyGets } from './early-gets';

startEarlyGets(window.location.pathname);
