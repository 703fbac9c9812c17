// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;

import "./TestSmartAccount.sol";

/// Tests only: makes TestSmartAccounts with CREATE2, so an account's address is known before it exists
/// (a counterfactual account, whose signatures ERC-6492 wraps with this factory's call).
contract TestAccountFactory {
    event AccountCreated(address indexed account, address indexed owner, bytes32 salt);

    /// Deploys the owner's account for `salt`, or returns it when it is already there.
    function createAccount(address owner, bytes32 salt) external returns (address account) {
        account = accountAddress(owner, salt);
        if (account.code.length > 0) return account;
        new TestSmartAccount{salt: salt}(owner);
        emit AccountCreated(account, owner, salt);
    }

    function accountAddress(address owner, bytes32 salt) public view returns (address) {
        bytes32 initCodeHash = keccak256(abi.encodePacked(type(TestSmartAccount).creationCode, abi.encode(owner)));
        return address(uint160(uint256(keccak256(abi.encodePacked(bytes1(0xff), address(this), salt, initCodeHash)))));
    }
}
