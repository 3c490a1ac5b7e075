import 'reflect-metadata';
import { DataSource } from 'typeorm';
import { AppConfigService } from 'src/config/app-config.service';
import { createDataSourceOptions } from 'src/database/data-source';

// Used by the TypeORM CLI: `npm run migration:generate -- src/database/migrations/AddThing`.
export default new DataSource(createDataSourceOptions(AppConfigService.fromEnv(process.env)));
