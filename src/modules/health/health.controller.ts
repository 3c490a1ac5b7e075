import { Controller, Get } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { ApiData } from 'src/common/http/api-responses';
import { HealthDto } from 'src/modules/health/dto/health.dto';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { Public } from 'src/common/auth/authenticated.decorator';
import { AppException } from 'src/common/errors/app.exception';
import { CommonError } from 'src/common/errors/error-codes';
import { Draining } from 'src/common/shutdown/draining';

@ApiTags('health')
@Controller('api/health')
export class HealthController {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly draining: Draining,
  ) {}

  @Get()
  @Public()
  @ApiData(HealthDto, { description: 'The panel runs and its database answers (503 DATABASE_UNAVAILABLE when not; 503 SHUTTING_DOWN once it has begun to shut down)' })
  async check(): Promise<{ data: HealthDto }> {
    if (this.draining.started) {
      throw new AppException(CommonError.SHUTTING_DOWN);
    }
    try {
      await this.dataSource.query('SELECT 1');
    } catch {
      throw new AppException(CommonError.DATABASE_UNAVAILABLE);
    }
    return { data: { status: 'ok', database: 'up' } };
  }
}
