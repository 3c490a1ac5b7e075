import { Type } from 'class-transformer';
import { ArrayMaxSize, IsArray, IsBoolean, IsInt, IsString, Max, MaxLength, Min, ValidateBy, ValidateIf, ValidateNested } from 'class-validator';
import { Optional } from 'src/common/validation/decorators';

/** Wings sends empty strings and size 0 with `successful: false`. */
const reportedOnFailure = (value: unknown, object: object): boolean => !(object as BackupStatusDto).successful && (value === '' || value === 0);

const matchesWhenSuccessful = (name: string, pattern: RegExp, message: string): PropertyDecorator =>
  ValidateBy(
    { name, validator: { validate: (value: unknown, args) => (typeof value === 'string' && pattern.test(value)) || reportedOnFailure(value, args!.object) } },
    { message },
  );

/** Only the S3 adapter has parts; the local adapter sends null. */
export class BackupPartDto {
  @IsString()
  @MaxLength(255)
  etag!: string;

  @IsInt()
  @Min(1)
  @Max(10_000)
  part_number!: number;
}

/** `POST /api/remote/backups/{backup}`: checksum, type and size are required when the backup succeeded. */
export class BackupStatusDto {
  @IsBoolean()
  successful!: boolean;

  @ValidateIf((o: BackupStatusDto) => o.successful === true || o.checksum !== undefined)
  @matchesWhenSuccessful('isChecksum', /^[0-9a-f]{8,128}$/i, 'checksum must be the hex digest of the archive')
  checksum?: string;

  @ValidateIf((o: BackupStatusDto) => o.successful === true || o.checksum_type !== undefined)
  @matchesWhenSuccessful('isChecksumType', /^[a-z0-9]{1,16}$/, 'checksum_type must name the digest, e.g. sha1')
  checksum_type?: string;

  @ValidateIf((o: BackupStatusDto) => o.successful === true || o.size !== undefined)
  @IsInt()
  @Min(0)
  @Max(Number.MAX_SAFE_INTEGER)
  size?: number;

  @Optional({ nullable: true })
  @IsArray()
  @ArrayMaxSize(10_000)
  @ValidateNested({ each: true })
  @Type(() => BackupPartDto)
  parts?: BackupPartDto[] | null;
}

/** `POST /api/remote/backups/{backup}/restore`. */
export class RestoreStatusDto {
  @IsBoolean()
  successful!: boolean;
}
