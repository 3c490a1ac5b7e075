import { Type } from 'class-transformer';
import { ArrayMaxSize, ArrayMinSize, IsArray, IsBoolean, IsString, MaxLength, ValidateBy, ValidateNested } from 'class-validator';
import { Optional } from 'src/common/validation/decorators';

const MAX_FILES = 500;

class RootBody {
  @Optional()
  @IsString()
  root?: string;
}

class RenameItem {
  @IsString()
  from!: string;

  @IsString()
  to!: string;
}

export class RenameBody extends RootBody {
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(MAX_FILES)
  @ValidateNested({ each: true })
  @Type(() => RenameItem)
  files!: RenameItem[];
}

export class FilesBody extends RootBody {
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(MAX_FILES)
  @IsString({ each: true })
  files!: string[];
}

export class DecompressBody extends RootBody {
  @IsString()
  file!: string;
}

export class CreateFolderBody extends RootBody {
  @IsString()
  @MaxLength(255)
  name!: string;
}

export class CopyBody {
  @IsString()
  location!: string;
}

/** Pterodactyl's `mode` is numeric (`755`, or the string `"755"`): octal digits either way. */
const isOctalMode = (value: unknown): boolean => (typeof value === 'number' || typeof value === 'string') && /^[0-7]{3,4}$/.test(String(value));

class ChmodItem {
  @IsString()
  file!: string;

  @ValidateBy({ name: 'numeric', validator: { validate: isOctalMode } }, { message: 'mode must be an octal permission such as 644' })
  mode!: number | string;
}

export class ChmodBody extends RootBody {
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(MAX_FILES)
  @ValidateNested({ each: true })
  @Type(() => ChmodItem)
  files!: ChmodItem[];
}

export class PullBody {
  @IsString()
  @MaxLength(2048)
  url!: string;

  @Optional()
  @IsString()
  directory?: string;

  /** Read and ignored: the node names the file from the URL. */
  @Optional()
  @IsString()
  filename?: string;

  @Optional()
  @IsBoolean()
  use_header?: boolean;

  @Optional()
  @IsBoolean()
  foreground?: boolean;
}
