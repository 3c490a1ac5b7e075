import { Controller, Get } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { Public } from 'src/common/auth/authenticated.decorator';
import { AppException } from 'src/common/errors/app.exception';
import { CommonError } from 'src/common/errors/error-codes';

@ApiTags('health')
@Controller('api/health')
export class HealthController {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  @Get()
  @Public()
  async check(): Promise<{ data: { status: 'ok'; database: 'up' } }> {
    try {
      await this.dataSource.query('SELECT 1');
    } catch {
      throw new AppException(CommonError.DATABASE_UNAVAILABLE);
    }
    return { data: { status: 'ok', database: 'up' } };
  }
}
