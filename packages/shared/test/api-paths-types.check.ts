// Compile-time checks of apiPath()'s parameters (run by `pnpm typecheck`, not by vitest): each line
// marked as an expected error must fail to compile, or tsc reports the directive as unused.
import { API_PATHS, apiPath } from '../src/api/paths';

// @ts-expect-error the id is missing
apiPath(API_PATHS.articleRead, {});
// @ts-expect-error a misspelt parameter
apiPath(API_PATHS.articleRead, { ids: '1' });
// @ts-expect-error a path without parameters does not go through apiPath
apiPath(API_PATHS.user, {});
apiPath(API_PATHS.taskStatus, { id: 1 });
