import { ArrayMaxSize, ArrayMinSize, IsArray, IsIP, IsString, Matches, MaxLength } from 'class-validator';
import { Optional } from 'src/common/validation/decorators';
import type { AllocationEntity } from 'src/modules/nodes/allocation.entity';

export class CreateAllocationsDto {
  @IsIP()
  ip!: string;

  /** Single ports and ranges: `["25565", "25570-25580"]`. */
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(100)
  @Matches(/^\d{1,5}(-\d{1,5})?$/, { each: true, message: 'each port must be a number or a range such as 25570-25580' })
  ports!: string[];

  @Optional({ nullable: true })
  @IsString()
  @MaxLength(191)
  alias?: string | null;
}

export class AllocationResponseDto {
  id!: string;
  ip!: string;
  port!: number;
  alias!: string | null;
  notes!: string | null;
  serverId!: string | null;
  assigned!: boolean;
  /** The active transfer holding this free allocation for its server (docs/admin-guide.md#transfers). */
  reservedByTransferId!: string | null;
}

export const toAllocationResponse = (
  a: Pick<AllocationEntity, 'id' | 'ip' | 'port' | 'alias' | 'notes' | 'serverId'> & { reservedByTransferId?: string | null },
): AllocationResponseDto => ({
  id: a.id,
  ip: a.ip,
  port: a.port,
  alias: a.alias,
  notes: a.notes,
  serverId: a.serverId,
  assigned: a.serverId !== null,
  reservedByTransferId: a.reservedByTransferId ?? null,
});

/**
 * Narrows a node's allocations: an exact address and port, an alias containing the text
 * (case-insensitively), and the server holding them (`null`: none does).
 */
export interface AllocationFilter {
  ip?: string;
  port?: number;
  aliasContains?: string;
  server?: string | null;
}
