// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;

/// Tests only: the smallest contract account that signs in. Its owner's personal_sign signature is its
/// own (ERC-1271): `isValidSignature` answers the magic value when the hash recovers to the owner.
contract TestSmartAccount {
    bytes4 internal constant MAGIC_VALUE = 0x1626ba7e;
    bytes4 internal constant INVALID = 0xffffffff;

    address public immutable owner;

    constructor(address owner_) {
        owner = owner_;
    }

    function isValidSignature(bytes32 hash, bytes calldata signature) external view returns (bytes4) {
        if (signature.length != 65) return INVALID;
        bytes32 r = bytes32(signature[0:32]);
        bytes32 s = bytes32(signature[32:64]);
        uint8 v = uint8(signature[64]);
        // yParity (0 or 1) as some signers write it
        if (v < 27) v += 27;
        address signer = ecrecover(hash, v, r, s);
        return signer != address(0) && signer == owner ? MAGIC_VALUE : INVALID;
    }
}
