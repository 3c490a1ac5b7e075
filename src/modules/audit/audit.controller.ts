import { Controller, Get, Query } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { ApiPage } from 'src/common/http/api-responses';
import { AdminScope } from 'src/common/auth/admin-scope';
import { Authenticated } from 'src/common/auth/authenticated.decorator';
import { CursorPaginated, toCursorPage } from 'src/common/http/cursor';
import { Paginated, toPage } from 'src/common/http/pagination';
import { AuditService } from 'src/modules/audit/audit.service';
import { AuditLogQueryDto } from 'src/modules/audit/dto/audit-log-query.dto';
import { AuditLogResponseDto } from 'src/modules/audit/dto/audit-log-response.dto';

@ApiTags('admin: audit log')
@Controller('api/admin/audit-logs')
export class AuditController {
  constructor(private readonly service: AuditService) {}

  @Get()
  @Authenticated({ admin: AdminScope.AUDIT_READ })
  @ApiPage(AuditLogResponseDto, { cursor: true })
  list(@Query() query: AuditLogQueryDto): Promise<Paginated<AuditLogResponseDto> | CursorPaginated<AuditLogResponseDto>> {
    const { action, actorId, targetType, targetId } = query;
    const cursor = toCursorPage(query, 'audit-log', ['id']);
    return cursor ? this.service.list({ action, actorId, targetType, targetId }, cursor) : this.service.list({ action, actorId, targetType, targetId }, toPage(query));
  }
}
