import type { MixedList } from 'typeorm';
import { CreateUsersSessionsApiKeys1795315755628 } from 'src/database/migrations/1795315755628-CreateUsersSessionsApiKeys';

/** Every migration, in order. Add each generated migration here. */
// eslint-disable-next-line @typescript-eslint/no-unsafe-function-type
export const MIGRATIONS: MixedList<Function> = [CreateUsersSessionsApiKeys1795315755628];
