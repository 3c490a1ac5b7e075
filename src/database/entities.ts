import { ApiKeyEntity } from 'src/modules/api-keys/api-key.entity';
import { SessionEntity } from 'src/modules/sessions/session.entity';
import { UserEntity } from 'src/modules/users/user.entity';

/** Every entity, registered once for the app, the TypeORM CLI and the tests. */
export const ENTITIES = [UserEntity, SessionEntity, ApiKeyEntity];
