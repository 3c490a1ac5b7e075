import { Type } from 'class-transformer';
import { ArrayMaxSize, ArrayMinSize, IsArray, IsString, Matches, MaxLength, ValidateNested } from 'class-validator';
import { Optional } from 'src/common/validation/decorators';

// Paths are plain strings here; FilesService runs every one through normalizeServerPath (400 on escape).
const MAX_FILES = 500;

export class DirectoryQueryDto {
  @Optional()
  @IsString()
  directory?: string;
}

export class FileQueryDto {
  @IsString()
  file!: string;
}

export class WriteFileDto {
  @IsString()
  file!: string;

  @IsString()
  content!: string;
}

export class CopyFileDto {
  @IsString()
  location!: string;
}

export class RenameItemDto {
  @IsString()
  from!: string;

  @IsString()
  to!: string;
}

/** The directory the request's names are relative to; `/` when absent. */
class RootDto {
  @Optional()
  @IsString()
  root?: string;
}

export class RenameFilesDto extends RootDto {

  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(MAX_FILES)
  @ValidateNested({ each: true })
  @Type(() => RenameItemDto)
  files!: RenameItemDto[];
}

/** delete and compress: names (or relative paths) inside `root`. */
export class RootFilesDto extends RootDto {

  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(MAX_FILES)
  @IsString({ each: true })
  files!: string[];
}

export class DecompressFileDto extends RootDto {

  @IsString()
  file!: string;
}

export class CreateFolderDto extends RootDto {

  @IsString()
  @MaxLength(255)
  name!: string;
}

export class ChmodItemDto {
  @IsString()
  file!: string;

  @Matches(/^[0-7]{3,4}$/, { message: 'mode must be an octal permission string such as 644' })
  mode!: string;
}

export class ChmodFilesDto extends RootDto {

  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(MAX_FILES)
  @ValidateNested({ each: true })
  @Type(() => ChmodItemDto)
  files!: ChmodItemDto[];
}

export class PullFileDto {
  @IsString()
  @MaxLength(2048)
  url!: string;

  @Optional()
  @IsString()
  directory?: string;
}
