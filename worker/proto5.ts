import fs from 'node:fs';
import { extractResearchProfileOffline } from './src/ai/offline/research-extractor';
for (const f of fs.readdirSync('test/fixtures/homepages')) {
  const r = extractResearchProfileOffline(fs.readFileSync('test/fixtures/homepages/'+f, 'utf8'));
  console.log(f, JSON.stringify(r, null, 1));
}
