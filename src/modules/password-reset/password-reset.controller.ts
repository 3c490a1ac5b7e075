import { Body, Controller, HttpCode, Post } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { ApiData } from 'src/common/http/api-responses';
import { Public } from 'src/common/auth/authenticated.decorator';
import { RequireCaptcha } from 'src/modules/captcha/captcha.guard';
import { ForgetPasswordDto, ForgetPasswordResponseDto, ResetPasswordDto } from 'src/modules/password-reset/dto/password-reset.dto';
import { PasswordResetService } from 'src/modules/password-reset/password-reset.service';

/** The same answer for every address, known or not (no account enumeration). */
const FORGET_PASSWORD_MESSAGE = 'If an account uses this e-mail address, a link to reset its password is on its way';

@ApiTags('auth')
@Controller('api/auth')
export class PasswordResetController {
  constructor(private readonly service: PasswordResetService) {}

  /** Mails a one-hour reset link when the address belongs to an account; answers 200 either way. */
  @Post('forget-password')
  @HttpCode(200)
  @Public()
  @RequireCaptcha()
  @ApiData(ForgetPasswordResponseDto)
  forgetPassword(@Body() dto: ForgetPasswordDto): { data: ForgetPasswordResponseDto } {
    this.service.request(dto.email);
    return { data: { message: FORGET_PASSWORD_MESSAGE } };
  }

  /** Sets a new password with the token of the link; every session of the account is signed out. */
  @Post('reset-password')
  @HttpCode(204)
  @Public()
  async resetPassword(@Body() dto: ResetPasswordDto): Promise<void> {
    await this.service.reset(dto.token, dto.newPassword);
  }
}
