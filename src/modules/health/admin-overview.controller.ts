import { Controller, Get } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { AdminScope } from 'src/common/auth/admin-scope';
import { Authenticated } from 'src/common/auth/authenticated.decorator';
import { ApiData } from 'src/common/http/api-responses';
import { AdminOverviewService } from 'src/modules/health/admin-overview.service';
import { AdminOverviewDto } from 'src/modules/health/dto/admin-overview.dto';

@ApiTags('admin: overview')
@Controller('api/admin/overview')
export class AdminOverviewController {
  constructor(private readonly overview: AdminOverviewService) {}

  /** Counts, the first-setup checklist, the version and the health of the database, mail, Redis and each node (each probe given 2 s at most). */
  @Get()
  @Authenticated({ admin: AdminScope.NODES_READ })
  @ApiData(AdminOverviewDto)
  async get(): Promise<{ data: AdminOverviewDto }> {
    return { data: await this.overview.overview() };
  }
}
