/**
 * The messages of LDK's Versioned Storage Service, as `proto/vss.proto` of lightningdevkit/vss-server
 * declares them (package `vss`, proto3; field numbers and names unchanged), written here as a descriptor
 * instead of generated code: @bufbuild/protobuf builds the same runtime schema from it, and the types below
 * are what its code generator would emit. Only what the wallet and the world's server speak is here:
 * the four calls, their answers, the error answer and the helper messages `Storable`, `EncryptionMetadata`
 * and `PlaintextBlob`.
 */
import { create, createFileRegistry, type Message } from "@bufbuild/protobuf";
import { enumDesc, type GenEnum, type GenMessage, messageDesc } from "@bufbuild/protobuf/codegenv2";
import {
  FieldDescriptorProto_Label as Label,
  FieldDescriptorProto_Type as Type,
  FileDescriptorProtoSchema,
} from "@bufbuild/protobuf/wkt";

const KV = ".vss.KeyValue";
type FieldSpec = readonly [
  name: string,
  number: number,
  type: Type,
  extra?: "repeated" | "optional" | string,
];

/** A message of proto3 fields; `extra` is "repeated", "optional" or a message type name (`.vss.KeyValue`). */
const message = (name: string, fields: readonly FieldSpec[]) => {
  const optional = fields.filter(([, , , extra]) => extra === "optional");
  return {
    name,
    field: fields.map(([fieldName, number, type, extra]) => {
      const isMessage = type === Type.MESSAGE || type === Type.ENUM;
      const o = optional.findIndex(([n]) => n === fieldName);
      return {
        name: fieldName,
        number,
        type,
        label: extra === "repeated" ? Label.REPEATED : Label.OPTIONAL,
        jsonName: fieldName.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase()),
        // The protocol's only repeated messages are lists of `KeyValue`.
        ...(isMessage ? { typeName: extra === "repeated" ? KV : extra } : {}),
        ...(o >= 0 ? { oneofIndex: o, proto3Optional: true } : {}),
      };
    }),
    oneofDecl: optional.map(([n]) => ({ name: `_${n}` })),
  };
};

const file = create(FileDescriptorProtoSchema, {
  name: "vss.proto",
  package: "vss",
  syntax: "proto3",
  messageType: [
    message("GetObjectRequest", [
      ["store_id", 1, Type.STRING],
      ["key", 2, Type.STRING],
    ]),
    message("GetObjectResponse", [["value", 2, Type.MESSAGE, KV]]),
    message("PutObjectRequest", [
      ["store_id", 1, Type.STRING],
      ["global_version", 2, Type.INT64, "optional"],
      ["transaction_items", 3, Type.MESSAGE, "repeated"],
      ["delete_items", 4, Type.MESSAGE, "repeated"],
    ]),
    message("PutObjectResponse", []),
    message("DeleteObjectRequest", [
      ["store_id", 1, Type.STRING],
      ["key_value", 2, Type.MESSAGE, KV],
    ]),
    message("DeleteObjectResponse", []),
    message("ListKeyVersionsRequest", [
      ["store_id", 1, Type.STRING],
      ["key_prefix", 2, Type.STRING, "optional"],
      ["page_size", 3, Type.INT32, "optional"],
      ["page_token", 4, Type.STRING, "optional"],
    ]),
    message("ListKeyVersionsResponse", [
      ["key_versions", 1, Type.MESSAGE, "repeated"],
      ["next_page_token", 2, Type.STRING, "optional"],
      ["global_version", 3, Type.INT64, "optional"],
    ]),
    message("ErrorResponse", [
      ["error_code", 1, Type.ENUM, ".vss.ErrorCode"],
      ["message", 2, Type.STRING],
    ]),
    message("KeyValue", [
      ["key", 1, Type.STRING],
      ["version", 2, Type.INT64],
      ["value", 3, Type.BYTES],
    ]),
    message("Storable", [
      ["data", 1, Type.BYTES],
      ["encryption_metadata", 2, Type.MESSAGE, ".vss.EncryptionMetadata"],
    ]),
    message("EncryptionMetadata", [
      ["cipher_format", 1, Type.STRING],
      ["nonce", 2, Type.BYTES],
      ["tag", 3, Type.BYTES],
    ]),
    message("PlaintextBlob", [
      ["value", 1, Type.BYTES],
      ["version", 2, Type.INT64],
    ]),
  ],
  enumType: [
    {
      name: "ErrorCode",
      value: [
        { name: "UNKNOWN", number: 0 },
        { name: "CONFLICT_EXCEPTION", number: 1 },
        { name: "INVALID_REQUEST_EXCEPTION", number: 2 },
        { name: "INTERNAL_SERVER_EXCEPTION", number: 3 },
        { name: "NO_SUCH_KEY_EXCEPTION", number: 4 },
        { name: "AUTH_EXCEPTION", number: 5 },
      ],
    },
  ],
});

const registry = createFileRegistry(file, () => undefined);
const vssFile = registry.getFile("vss.proto");
if (!vssFile) throw new Error("The storage protocol's descriptor did not load");

export enum ErrorCode {
  UNKNOWN = 0,
  CONFLICT_EXCEPTION = 1,
  INVALID_REQUEST_EXCEPTION = 2,
  INTERNAL_SERVER_EXCEPTION = 3,
  NO_SUCH_KEY_EXCEPTION = 4,
  AUTH_EXCEPTION = 5,
}
export const ErrorCodeSchema: GenEnum<ErrorCode> = enumDesc(vssFile, 0);

export type KeyValue = Message<"vss.KeyValue"> & { key: string; version: bigint; value: Uint8Array };
export type GetObjectRequest = Message<"vss.GetObjectRequest"> & { storeId: string; key: string };
export type GetObjectResponse = Message<"vss.GetObjectResponse"> & { value?: KeyValue };
export type PutObjectRequest = Message<"vss.PutObjectRequest"> & {
  storeId: string;
  globalVersion?: bigint;
  transactionItems: KeyValue[];
  deleteItems: KeyValue[];
};
export type PutObjectResponse = Message<"vss.PutObjectResponse">;
export type DeleteObjectRequest = Message<"vss.DeleteObjectRequest"> & {
  storeId: string;
  keyValue?: KeyValue;
};
export type DeleteObjectResponse = Message<"vss.DeleteObjectResponse">;
export type ListKeyVersionsRequest = Message<"vss.ListKeyVersionsRequest"> & {
  storeId: string;
  keyPrefix?: string;
  pageSize?: number;
  pageToken?: string;
};
export type ListKeyVersionsResponse = Message<"vss.ListKeyVersionsResponse"> & {
  keyVersions: KeyValue[];
  nextPageToken?: string;
  globalVersion?: bigint;
};
export type ErrorResponse = Message<"vss.ErrorResponse"> & { errorCode: ErrorCode; message: string };
export type EncryptionMetadata = Message<"vss.EncryptionMetadata"> & {
  cipherFormat: string;
  nonce: Uint8Array;
  tag: Uint8Array;
};
export type Storable = Message<"vss.Storable"> & {
  data: Uint8Array;
  encryptionMetadata?: EncryptionMetadata;
};
export type PlaintextBlob = Message<"vss.PlaintextBlob"> & { value: Uint8Array; version: bigint };

export const GetObjectRequestSchema: GenMessage<GetObjectRequest> = messageDesc(vssFile, 0);
export const GetObjectResponseSchema: GenMessage<GetObjectResponse> = messageDesc(vssFile, 1);
export const PutObjectRequestSchema: GenMessage<PutObjectRequest> = messageDesc(vssFile, 2);
export const PutObjectResponseSchema: GenMessage<PutObjectResponse> = messageDesc(vssFile, 3);
export const DeleteObjectRequestSchema: GenMessage<DeleteObjectRequest> = messageDesc(vssFile, 4);
export const DeleteObjectResponseSchema: GenMessage<DeleteObjectResponse> = messageDesc(vssFile, 5);
export const ListKeyVersionsRequestSchema: GenMessage<ListKeyVersionsRequest> = messageDesc(vssFile, 6);
export const ListKeyVersionsResponseSchema: GenMessage<ListKeyVersionsResponse> = messageDesc(vssFile, 7);
export const ErrorResponseSchema: GenMessage<ErrorResponse> = messageDesc(vssFile, 8);
export const KeyValueSchema: GenMessage<KeyValue> = messageDesc(vssFile, 9);
export const StorableSchema: GenMessage<Storable> = messageDesc(vssFile, 10);
export const EncryptionMetadataSchema: GenMessage<EncryptionMetadata> = messageDesc(vssFile, 11);
export const PlaintextBlobSchema: GenMessage<PlaintextBlob> = messageDesc(vssFile, 12);

/** The key vss-server keeps the store's `global_version` under (never listed, never a wallet's key). */
export const GLOBAL_VERSION_KEY = "global_version";

/** The messages each of the protocol's four calls asks with and answers. */
interface VssCallMessages {
  readonly getObject: readonly [GetObjectRequest, GetObjectResponse];
  readonly putObjects: readonly [PutObjectRequest, PutObjectResponse];
  readonly deleteObject: readonly [DeleteObjectRequest, DeleteObjectResponse];
  readonly listKeyVersions: readonly [ListKeyVersionsRequest, ListKeyVersionsResponse];
}
export type VssCall = keyof VssCallMessages;
export type VssRequest<C extends VssCall> = VssCallMessages[C][0];
export type VssResponse<C extends VssCall> = VssCallMessages[C][1];

/** The protocol's four calls, each a `POST` to its name: the message it asks with and the one it answers. */
export const VSS_CALLS: {
  readonly [C in VssCall]: {
    readonly request: GenMessage<VssRequest<C>>;
    readonly response: GenMessage<VssResponse<C>>;
  };
} = {
  getObject: { request: GetObjectRequestSchema, response: GetObjectResponseSchema },
  putObjects: { request: PutObjectRequestSchema, response: PutObjectResponseSchema },
  deleteObject: { request: DeleteObjectRequestSchema, response: DeleteObjectResponseSchema },
  listKeyVersions: { request: ListKeyVersionsRequestSchema, response: ListKeyVersionsResponseSchema },
};
