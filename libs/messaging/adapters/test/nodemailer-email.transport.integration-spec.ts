import { Logger } from '@nestjs/common';
import { EmailDeliveryError, isPermanentDeliveryFailure, OutgoingMessage } from '@leadflow/messaging-core';
import { newId } from '@leadflow/shared-kernel';
import { AppConfig } from '@leadflow/shared-platform';
import { SmtpSink } from '@leadflow/shared-testing';
import { NodemailerEmailTransport } from '../src/infrastructure/mail/nodemailer-email.transport';

/** The SMTP adapter against a real SMTP server (smtp-server on a random loopback port): hand-over and failure translation. */
describe('NodemailerEmailTransport', () => {
  let sink: SmtpSink;
  const transports: NodemailerEmailTransport[] = [];

  const transport = (smtpUrl: string | undefined) => {
    const created = new NodemailerEmailTransport(new AppConfig({ SMTP_URL: smtpUrl }));
    transports.push(created);
    return created;
  };
  const message = (overrides: Partial<OutgoingMessage> = {}): OutgoingMessage => {
    const emailId = newId();
    return {
      emailId,
      from: { email: 'bonjour@lavoie.test', name: 'Lavoie' },
      to: 'nadia@example.com',
      replyTo: 'julie@lavoie.test',
      subject: 'Votre soumission',
      html: '<p>Bonjour</p>',
      messageId: `<${emailId}@lavoie.test>`,
      ...overrides,
    };
  };
  const failureOf = (work: Promise<unknown>) => work.then(() => null, (error: unknown) => error as EmailDeliveryError);

  beforeAll(async () => {
    sink = await SmtpSink.start();
  });

  afterAll(async () => {
    transports.forEach((created) => created.onApplicationShutdown());
    await sink.stop();
  });

  it('hands the message to the SMTP server of SMTP_URL with its sender, recipient, reply-to, subject, HTML and Message-ID', async () => {
    const sent = message();

    const receipt = await transport(sink.url).send(sent);

    expect(receipt).toEqual({ providerMessageId: sent.messageId });
    const [received] = sink.withHeader('X-Leadflow-Email-Id', sent.emailId);
    expect(received).toMatchObject({ mailFrom: 'bonjour@lavoie.test', recipients: ['nadia@example.com'], body: '<p>Bonjour</p>' });
    expect(received.headers).toMatchObject({
      from: 'Lavoie <bonjour@lavoie.test>',
      to: 'nadia@example.com',
      'reply-to': 'julie@lavoie.test',
      subject: 'Votre soumission',
      'message-id': sent.messageId,
    });
  });

  it('reports a 4xx reply as a transient failure carrying the reply code and text', async () => {
    sink.refuse('later@example.com', 451, '4.7.1 Greylisted', 1);

    const error = await failureOf(transport(sink.url).send(message({ to: 'later@example.com' })));

    expect(error).toBeInstanceOf(EmailDeliveryError);
    expect(error).toMatchObject({ responseCode: 451, message: '4.7.1 Greylisted' });
    expect(isPermanentDeliveryFailure(error)).toBe(false);
  });

  it('reports a 5xx reply as a permanent failure', async () => {
    sink.refuse('gone@example.com', 550, '5.1.1 Mailbox unavailable');

    const error = await failureOf(transport(sink.url).send(message({ to: 'gone@example.com' })));

    expect(error).toMatchObject({ responseCode: 550, message: '5.1.1 Mailbox unavailable' });
    expect(isPermanentDeliveryFailure(error)).toBe(true);
  });

  it('reports a refused connection as a transient failure', async () => {
    const down = await SmtpSink.start();
    const url = down.url;
    await down.stop();

    const error = await failureOf(transport(url).send(message()));

    expect(error).toBeInstanceOf(EmailDeliveryError);
    expect(error?.responseCode).toBeNull();
    expect(error?.message).toContain('ECONNREFUSED');
    expect(isPermanentDeliveryFailure(error)).toBe(false);
  });

  it('without SMTP_URL, writes the message to the logs as JSON and reports its Message-ID', async () => {
    const logged = jest.spyOn(Logger.prototype, 'log').mockImplementation(() => undefined);
    try {
      const sent = message();

      const receipt = await transport(undefined).send(sent);

      expect(receipt).toEqual({ providerMessageId: sent.messageId });
      expect(logged).toHaveBeenCalledWith(
        {
          emailId: sent.emailId,
          transport: 'logging',
          email: expect.objectContaining({
            from: { address: 'bonjour@lavoie.test', name: 'Lavoie' },
            to: [{ address: 'nadia@example.com', name: '' }],
            subject: 'Votre soumission',
            html: '<p>Bonjour</p>',
            messageId: sent.messageId,
          }),
        },
        'Email recorded by the logging transport (SMTP_URL is not set)',
      );
    } finally {
      logged.mockRestore();
    }
  });
});
