import { Schema } from "effect"
import { optional, StringRecord } from "../internal/common.ts"

const Scopes = StringRecord(Schema.String)

/** `lf.a2a.v1.AuthorizationCodeOAuthFlow`. */
export const AuthorizationCodeOAuthFlow: Schema.Struct<{
  readonly authorizationUrl: Schema.String
  readonly tokenUrl: Schema.String
  readonly refreshUrl: Schema.optionalKey<Schema.String>
  readonly scopes: Schema.$Record<Schema.String, Schema.String>
  readonly pkceRequired: Schema.optionalKey<Schema.Boolean>
}> = Schema.Struct({
  authorizationUrl: Schema.String,
  tokenUrl: Schema.String,
  refreshUrl: optional(Schema.String),
  scopes: Scopes,
  pkceRequired: optional(Schema.Boolean)
}).annotate({ identifier: "AuthorizationCodeOAuthFlow" })

/** `lf.a2a.v1.ClientCredentialsOAuthFlow`. */
export const ClientCredentialsOAuthFlow: Schema.Struct<{
  readonly tokenUrl: Schema.String
  readonly refreshUrl: Schema.optionalKey<Schema.String>
  readonly scopes: Schema.$Record<Schema.String, Schema.String>
}> = Schema.Struct({
  tokenUrl: Schema.String,
  refreshUrl: optional(Schema.String),
  scopes: Scopes
}).annotate({ identifier: "ClientCredentialsOAuthFlow" })

/** `lf.a2a.v1.ImplicitOAuthFlow` (deprecated in 1.0, still in the proto). */
export const ImplicitOAuthFlow: Schema.Struct<{
  readonly authorizationUrl: Schema.optionalKey<Schema.String>
  readonly refreshUrl: Schema.optionalKey<Schema.String>
  readonly scopes: Schema.optionalKey<Schema.$Record<Schema.String, Schema.String>>
}> = Schema.Struct({
  authorizationUrl: optional(Schema.String),
  refreshUrl: optional(Schema.String),
  scopes: optional(Scopes)
}).annotate({ identifier: "ImplicitOAuthFlow" })

/** `lf.a2a.v1.PasswordOAuthFlow` (deprecated in 1.0, still in the proto). */
export const PasswordOAuthFlow: Schema.Struct<{
  readonly tokenUrl: Schema.optionalKey<Schema.String>
  readonly refreshUrl: Schema.optionalKey<Schema.String>
  readonly scopes: Schema.optionalKey<Schema.$Record<Schema.String, Schema.String>>
}> = Schema.Struct({
  tokenUrl: optional(Schema.String),
  refreshUrl: optional(Schema.String),
  scopes: optional(Scopes)
}).annotate({ identifier: "PasswordOAuthFlow" })

/** `lf.a2a.v1.DeviceCodeOAuthFlow` (new in 1.0). */
export const DeviceCodeOAuthFlow: Schema.Struct<{
  readonly deviceAuthorizationUrl: Schema.String
  readonly tokenUrl: Schema.String
  readonly refreshUrl: Schema.optionalKey<Schema.String>
  readonly scopes: Schema.$Record<Schema.String, Schema.String>
}> = Schema.Struct({
  deviceAuthorizationUrl: Schema.String,
  tokenUrl: Schema.String,
  refreshUrl: optional(Schema.String),
  scopes: Scopes
}).annotate({ identifier: "DeviceCodeOAuthFlow" })

const exactlyOne = (members: ReadonlyArray<string>, what: string) =>
  Schema.makeFilter((o: object) =>
    members.filter((m) => Object.hasOwn(o, m)).length === 1 ? undefined : `${what} holds exactly one of ${members.join(", ")}`)

/** `lf.a2a.v1.OAuthFlows`: a oneof in 1.0, exactly one flow (0.3 allowed several). */
export const OAuthFlows: Schema.Struct<{
  readonly authorizationCode: Schema.optionalKey<typeof AuthorizationCodeOAuthFlow>
  readonly clientCredentials: Schema.optionalKey<typeof ClientCredentialsOAuthFlow>
  readonly implicit: Schema.optionalKey<typeof ImplicitOAuthFlow>
  readonly password: Schema.optionalKey<typeof PasswordOAuthFlow>
  readonly deviceCode: Schema.optionalKey<typeof DeviceCodeOAuthFlow>
}> = Schema.Struct({
  authorizationCode: optional(AuthorizationCodeOAuthFlow),
  clientCredentials: optional(ClientCredentialsOAuthFlow),
  implicit: optional(ImplicitOAuthFlow),
  password: optional(PasswordOAuthFlow),
  deviceCode: optional(DeviceCodeOAuthFlow)
}).check(exactlyOne(["authorizationCode", "clientCredentials", "implicit", "password", "deviceCode"], "flows"))
  .annotate({ identifier: "OAuthFlows" })
/** @see OAuthFlows */
export type OAuthFlows = Schema.Schema.Type<typeof OAuthFlows>

/** `lf.a2a.v1.APIKeySecurityScheme`: `location` is 0.3's `in`. */
export const APIKeySecurityScheme: Schema.Struct<{
  readonly description: Schema.optionalKey<Schema.String>
  readonly location: Schema.String
  readonly name: Schema.String
}> = Schema.Struct({
  description: optional(Schema.String),
  location: Schema.String,
  name: Schema.String
}).annotate({ identifier: "APIKeySecurityScheme" })

/** `lf.a2a.v1.HTTPAuthSecurityScheme`. */
export const HTTPAuthSecurityScheme: Schema.Struct<{
  readonly description: Schema.optionalKey<Schema.String>
  readonly scheme: Schema.String
  readonly bearerFormat: Schema.optionalKey<Schema.String>
}> = Schema.Struct({
  description: optional(Schema.String),
  scheme: Schema.String,
  bearerFormat: optional(Schema.String)
}).annotate({ identifier: "HTTPAuthSecurityScheme" })

/** `lf.a2a.v1.OAuth2SecurityScheme`. */
export const OAuth2SecurityScheme: Schema.Struct<{
  readonly description: Schema.optionalKey<Schema.String>
  readonly flows: typeof OAuthFlows
  readonly oauth2MetadataUrl: Schema.optionalKey<Schema.String>
}> = Schema.Struct({
  description: optional(Schema.String),
  flows: OAuthFlows,
  oauth2MetadataUrl: optional(Schema.String)
}).annotate({ identifier: "OAuth2SecurityScheme" })

/** `lf.a2a.v1.OpenIdConnectSecurityScheme`. */
export const OpenIdConnectSecurityScheme: Schema.Struct<{
  readonly description: Schema.optionalKey<Schema.String>
  readonly openIdConnectUrl: Schema.String
}> = Schema.Struct({
  description: optional(Schema.String),
  openIdConnectUrl: Schema.String
}).annotate({ identifier: "OpenIdConnectSecurityScheme" })

/** `lf.a2a.v1.MutualTlsSecurityScheme`. */
export const MutualTlsSecurityScheme: Schema.Struct<{
  readonly description: Schema.optionalKey<Schema.String>
}> = Schema.Struct({
  description: optional(Schema.String)
}).annotate({ identifier: "MutualTlsSecurityScheme" })

/** `lf.a2a.v1.SecurityScheme`: a oneof, each kind under its own member name. */
export const SecurityScheme: Schema.Struct<{
  readonly apiKeySecurityScheme: Schema.optionalKey<typeof APIKeySecurityScheme>
  readonly httpAuthSecurityScheme: Schema.optionalKey<typeof HTTPAuthSecurityScheme>
  readonly oauth2SecurityScheme: Schema.optionalKey<typeof OAuth2SecurityScheme>
  readonly openIdConnectSecurityScheme: Schema.optionalKey<typeof OpenIdConnectSecurityScheme>
  readonly mtlsSecurityScheme: Schema.optionalKey<typeof MutualTlsSecurityScheme>
}> = Schema.Struct({
  apiKeySecurityScheme: optional(APIKeySecurityScheme),
  httpAuthSecurityScheme: optional(HTTPAuthSecurityScheme),
  oauth2SecurityScheme: optional(OAuth2SecurityScheme),
  openIdConnectSecurityScheme: optional(OpenIdConnectSecurityScheme),
  mtlsSecurityScheme: optional(MutualTlsSecurityScheme)
}).check(exactlyOne(
  ["apiKeySecurityScheme", "httpAuthSecurityScheme", "oauth2SecurityScheme", "openIdConnectSecurityScheme", "mtlsSecurityScheme"],
  "a security scheme"
)).annotate({ identifier: "SecurityScheme" })
/** @see SecurityScheme */
export type SecurityScheme = Schema.Schema.Type<typeof SecurityScheme>

/** `lf.a2a.v1.StringList`. */
export const StringList: Schema.Struct<{
  readonly list: Schema.optionalKey<Schema.$Array<Schema.String>>
}> = Schema.Struct({ list: optional(Schema.Array(Schema.String)) }).annotate({ identifier: "StringList" })

/** `lf.a2a.v1.SecurityRequirement`: scheme name to its scopes (0.3's `{ name: [scopes] }`). */
export const SecurityRequirement: Schema.Struct<{
  readonly schemes: Schema.optionalKey<Schema.$Record<Schema.String, typeof StringList>>
}> = Schema.Struct({
  schemes: optional(StringRecord(StringList))
}).annotate({ identifier: "SecurityRequirement" })
/** @see SecurityRequirement */
export type SecurityRequirement = Schema.Schema.Type<typeof SecurityRequirement>
