import { Module } from '@nestjs/common';
import { TerminusModule } from '@nestjs/terminus';
import { HealthController } from './health.controller';
import { ServiceHealthIndicators } from './health.indicators';

/** The api's probes (`/health`, `/health/live`, `/health/ready`) on @nestjs/terminus; imported by `AppModule`. */
@Module({
  imports: [TerminusModule.forRoot({ errorLogStyle: 'json' })],
  controllers: [HealthController],
  providers: [ServiceHealthIndicators],
})
export class HealthModule {}
