import { join } from 'node:path';
import { register } from 'tsconfig-paths';

// Jest's global setup and teardown run outside Jest's module map, so `src/...` imports need this.
register({ baseUrl: join(__dirname, '..', '..'), paths: { 'src/*': ['src/*'], 'test/*': ['test/*'] } });
