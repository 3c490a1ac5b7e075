import { Type } from 'class-transformer';
import { ArrayMaxSize, IsArray, IsInt, IsObject, IsString, Matches, Max, MaxLength, Min, MinLength, ValidateNested } from 'class-validator';
import { Optional } from 'src/common/validation/decorators';
import { LaravelBoolean, LaravelInt } from 'src/modules/pterodactyl/common/laravel-rules';

class LimitsBody {
  @LaravelInt() @Min(0) @Max(2_147_483_647) memory!: number;
  @LaravelInt() @Min(-1) @Max(2_147_483_647) swap!: number;
  @LaravelInt() @Min(0) @Max(2_147_483_647) disk!: number;
  @LaravelInt() @Min(10) @Max(1000) io!: number;
  @LaravelInt() @Min(0) @Max(100_000) cpu!: number;
  @Optional({ nullable: true }) @Matches(/^\d+(-\d+)?(,\d+(-\d+)?)*$/) threads?: string | null;
}

class FeatureLimitsBody {
  @Optional({ nullable: true }) @LaravelInt() @Min(0) @Max(1000) databases?: number | null;
  @Optional({ nullable: true }) @LaravelInt() @Min(0) @Max(1000) allocations?: number | null;
  @Optional({ nullable: true }) @LaravelInt() @Min(0) @Max(1000) backups?: number | null;
}

class AllocationBody {
  @LaravelInt() @Min(1) default!: number;
  @Optional() @IsArray() @ArrayMaxSize(100) @IsInt({ each: true }) additional?: number[];
}

class DeployBody {
  @IsArray() @ArrayMaxSize(100) @IsInt({ each: true }) @Min(1, { each: true }) locations!: number[];
  @LaravelBoolean() dedicated_ip!: boolean;
  @Optional() @IsArray() @ArrayMaxSize(100) @Matches(/^\d{1,5}(-\d{1,5})?$/, { each: true }) port_range?: string[];
}

/** StoreServerRequest: `allocation` or `deploy` says where the server goes. */
export class StoreServerBody {
  @Optional({ nullable: true }) @IsString() @MinLength(1) @MaxLength(191) external_id?: string | null;
  @IsString() @MinLength(1) @MaxLength(191) name!: string;
  @Optional({ nullable: true }) @IsString() @MaxLength(65_535) description?: string | null;
  @LaravelInt() @Min(1) user!: number;
  @LaravelInt() @Min(1) egg!: number;
  @Optional() @IsString() @MinLength(1) @MaxLength(2048) docker_image?: string;
  @Optional() @IsString() @MinLength(1) @MaxLength(65_535) startup?: string;
  @Optional() @IsObject() environment?: Record<string, unknown>;
  @Optional() @LaravelBoolean() skip_scripts?: boolean;
  @Optional() @LaravelBoolean() oom_disabled?: boolean;
  @Optional() @LaravelBoolean() start_on_completion?: boolean;
  @IsObject() @ValidateNested() @Type(() => LimitsBody) limits!: LimitsBody;
  @IsObject() @ValidateNested() @Type(() => FeatureLimitsBody) feature_limits!: FeatureLimitsBody;
  @Optional() @IsObject() @ValidateNested() @Type(() => AllocationBody) allocation?: AllocationBody;
  @Optional() @IsObject() @ValidateNested() @Type(() => DeployBody) deploy?: DeployBody;
}

export class DetailsBody {
  @Optional({ nullable: true }) @IsString() @MinLength(1) @MaxLength(191) external_id?: string | null;
  @Optional() @IsString() @MinLength(1) @MaxLength(191) name?: string;
  @Optional() @LaravelInt() @Min(1) user?: number;
  @Optional({ nullable: true }) @IsString() @MaxLength(65_535) description?: string | null;
}

class PartialLimitsBody {
  @Optional() @LaravelInt() @Min(0) @Max(2_147_483_647) memory?: number;
  @Optional() @LaravelInt() @Min(-1) @Max(2_147_483_647) swap?: number;
  @Optional() @LaravelInt() @Min(0) @Max(2_147_483_647) disk?: number;
  @Optional() @LaravelInt() @Min(10) @Max(1000) io?: number;
  @Optional() @LaravelInt() @Min(0) @Max(100_000) cpu?: number;
  @Optional({ nullable: true }) @Matches(/^\d+(-\d+)?(,\d+(-\d+)?)*$/) threads?: string | null;
}

/** UpdateServerBuildConfigurationRequest: limits inside `limits` or, the legacy way, at the top level. */
export class BuildBody extends PartialLimitsBody {
  @Optional() @LaravelInt() @Min(1) allocation?: number;
  @Optional() @LaravelBoolean() oom_disabled?: boolean;
  @Optional() @IsObject() @ValidateNested() @Type(() => PartialLimitsBody) limits?: PartialLimitsBody;
  @Optional() @IsObject() @ValidateNested() @Type(() => FeatureLimitsBody) feature_limits?: FeatureLimitsBody;
  @Optional() @IsArray() @ArrayMaxSize(100) @IsInt({ each: true }) @Min(1, { each: true }) add_allocations?: number[];
  @Optional() @IsArray() @ArrayMaxSize(100) @IsInt({ each: true }) @Min(1, { each: true }) remove_allocations?: number[];
}

export class StartupBody {
  @Optional() @IsString() @MinLength(1) @MaxLength(65_535) startup?: string;
  @Optional() @IsObject() environment?: Record<string, unknown>;
  @Optional() @LaravelInt() @Min(1) egg?: number;
  @Optional() @IsString() @MinLength(1) @MaxLength(2048) image?: string;
  @Optional() @LaravelBoolean() skip_scripts?: boolean;
}
