import { defineConfig } from 'drizzle-kit';

// Only `drizzle-kit generate` is used (it needs no database); migrations are applied by the app.
export default defineConfig({
  dialect: 'postgresql',
  schema: './src/schema/index.ts',
  out: './migrations',
  schemaFilter: ['radar'],
});
